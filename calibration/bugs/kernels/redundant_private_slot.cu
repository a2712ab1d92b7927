// REDUNDANT BARRIER: every thread reads back only its own slot, so the barrier orders nothing.
extern "C" __global__ void redundant_private_slot(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = 2.0f * s[tid];
}
