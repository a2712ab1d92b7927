// BUG (race inside one warp): the legacy "warp-synchronous" last steps of a reduction, volatile but with
// no __syncwarp(). Under independent thread scheduling (CC 7.0+) the lanes are not ordered.
extern "C" __global__ void race_warp_sync_reduce(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    if (tid < 32) {
        volatile float* vs = s;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0) {
        out[blockIdx.x] = s[0];
    }
}
