// BUG (divergent barrier inside a warp): only the even lanes reach __syncthreads().
extern "C" __global__ void divergent_barrier_odd(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    if (tid % 2 == 0) {
        __syncthreads();
        out[i] = s[tid + 1];
    }
}
