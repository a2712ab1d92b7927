// CORRECT: reverse a block's elements through dynamic shared memory of the right size.
extern "C" __global__ void ok_dyn_reverse(float* out, const float* in, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - tid];
}
