// BUG (out of bounds, dynamic shared): the launch passes 128 bytes of dynamic shared memory for a block
// of 64 floats.
extern "C" __global__ void oob_dyn_small(float* out, const float* in, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[63 - tid];
}
