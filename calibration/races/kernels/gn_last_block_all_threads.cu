// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:4:zero --arg buf:1024:zero
// The last-block pattern where every thread of the last block reads the other blocks' results:
// each block writes 64 values, a barrier, thread 0 fences and takes the ticket; the last block's
// threads are ordered after thread 0's acquire by the next barrier.
extern "C" __global__ void gn_last_block_all_threads(int *part, unsigned *ticket, int *out) {
    __shared__ bool last;
    int t = threadIdx.x;
    part[blockIdx.x * 64 + t] = blockIdx.x * 64 + t;
    __syncthreads();
    if (t == 0) {
        __threadfence();
        last = atomicAdd(ticket, 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        int s = 0;
        for (int b = 0; b < gridDim.x; b++) s += part[b * 64 + t];
        out[t] = s;
    }
}
