// BUG (out of bounds, shared): 64 threads index a 32-element array; the second warp writes past the end
// of the block's shared memory.
extern "C" __global__ void oob_shared_static(float* out, const float* in, int n)
{
    __shared__ float s[32];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[tid];
}
