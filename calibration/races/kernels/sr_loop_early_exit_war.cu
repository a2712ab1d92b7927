// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// Each thread searches the other slots in a loop that may end early (break on a value never
// present), then overwrites its own slot with no barrier: the other threads' reads in their loops
// race with that write.
extern "C" __global__ void sr_loop_early_exit_war(const int *in, int *out) {
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
    s[t] = acc;
    out[t] = acc;
}
