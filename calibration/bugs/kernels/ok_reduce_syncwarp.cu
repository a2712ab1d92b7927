// CORRECT: reduction whose last warp steps are ordered with __syncwarp() (read, sync, write, sync).
extern "C" __global__ void ok_reduce_syncwarp(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    if (tid < 32) {
        float v = s[tid] + s[tid + 32];
        s[tid] = v;
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            float other = 0.0f;
            if (tid < off) {
                other = s[tid + off];
            }
            __syncwarp();
            if (tid < off) {
                s[tid] += other;
            }
            __syncwarp();
        }
        if (tid == 0) {
            out[blockIdx.x] = s[0];
        }
    }
}
