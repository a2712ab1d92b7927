// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// Twin of sr_volatile_tail_two_warps: the step that crosses warps (64 -> 32) keeps its barrier;
// only warp 0 continues, each step separated by __syncwarp().
extern "C" __global__ void gn_volatile_tail_barrier_then_warp(const int *in, int *out) {
    __shared__ int sm[128];
    volatile int *s = sm;
    int t = threadIdx.x;
    s[t] = in[t] + in[t ^ 64];
    __syncthreads();
    if (t < 32) s[t] = s[t] + s[t + 32];
    __syncthreads();
    if (t < 32) {
        for (int k = 16; k > 0; k /= 2) {
            int v = s[t + k];
            __syncwarp();
            s[t] = s[t] + v;
            __syncwarp();
        }
        if (t == 0) out[0] = s[0];
    }
}
