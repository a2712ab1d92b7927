// BUG (uninitialised read): s[64..127] is never written, yet every thread reads s[tid + 64].
extern "C" __global__ void uninit_tail(float* out, const float* in, int n)
{
    __shared__ float s[128];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[tid] + s[tid + 64];
}
