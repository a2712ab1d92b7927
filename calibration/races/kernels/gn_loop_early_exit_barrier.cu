// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// sr_loop_early_exit_war with a barrier after the loop (reached by every thread) before the write.
extern "C" __global__ void gn_loop_early_exit_barrier(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t] & 0xff;
    __syncthreads();
    int acc = 0;
    for (int k = 1; k < 64; ++k) {
        int v = s[(t + k) % 64];
        if (v == 4096) break;
        acc += v;
    }
    __syncthreads();
    s[t] = acc;
    out[t] = acc;
}
