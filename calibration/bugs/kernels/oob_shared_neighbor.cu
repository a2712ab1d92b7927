// BUG (out of bounds, shared, inside the window): a[tid] with 64 threads runs into the neighbouring
// array, which memcheck cannot see (the bytes are still inside the block's shared memory).
extern "C" __global__ void oob_shared_neighbor(float* out, const float* in, int n)
{
    __shared__ float a[32];
    __shared__ float b[32];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    a[tid] = in[i];
    __syncthreads();
    if (tid < 32) {
        b[tid] = 2.0f * a[tid];
    }
    __syncthreads();
    out[i] = a[tid] + b[tid % 32];
}
