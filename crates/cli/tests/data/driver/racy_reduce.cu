// The racy reduction: every thread stores its element to shared memory, then thread 0 sums them
// with no barrier in between. Thread 0 races with the lanes of its own warp (no __syncwarp under
// independent thread scheduling) and with the other warp, and reads bytes the other warp has not
// written yet.
__global__ void racyReduce(const int *in, int *out)
{
    __shared__ int local_mem[64];
    int local_tid = threadIdx.x;
    local_mem[local_tid] = in[blockIdx.x * blockDim.x + local_tid];
    if (local_tid == 0) {
        int sum = 0;
        for (int i = 0; i < 64; i++)
            sum += local_mem[i];
        out[blockIdx.x] = sum;
    }
}
