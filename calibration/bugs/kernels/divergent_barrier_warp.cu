// BUG (barrier reached by part of the block): warp 1 never reaches the barrier that warp 0 waits at.
extern "C" __global__ void divergent_barrier_warp(float* out, const float* in, int n)
{
    __shared__ float s[32];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid < 32) {
        s[tid] = in[i];
        __syncthreads();
        out[i] = s[31 - tid];
    }
}
