// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// A barrier in a loop whose iteration thread i skips with `continue`: the threads disagree on
// which iterations reach the barrier (barrier divergence).
extern "C" __global__ void dv_continue(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x, v = 0;
    for (int i = 0; i < 4; i++) {
        if (t == i) continue;
        s[t] = v + i;
        __syncthreads();
        v += s[(t + 1) % 64];
        __syncthreads();
    }
    out[t] = v;
}
