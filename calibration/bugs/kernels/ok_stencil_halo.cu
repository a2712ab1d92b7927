// CORRECT: 1D 3-point stencil with a halo loaded by the first and last threads.
extern "C" __global__ void ok_stencil_halo(float* out, const float* in, int n)
{
    __shared__ float s[64 + 2];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid + 1] = in[i];
    if (tid == 0) {
        s[0] = (i > 0) ? in[i - 1] : 0.0f;
    }
    if (tid == blockDim.x - 1) {
        s[tid + 2] = (i + 1 < n) ? in[i + 1] : 0.0f;
    }
    __syncthreads();
    out[i] = s[tid] + s[tid + 1] + s[tid + 2];
}
