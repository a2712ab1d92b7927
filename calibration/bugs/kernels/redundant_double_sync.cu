// REDUNDANT BARRIER: two barriers in a row; one of them is enough.
extern "C" __global__ void redundant_double_sync(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    __syncthreads();
    out[i] = s[(tid + 1) % 64];
}
