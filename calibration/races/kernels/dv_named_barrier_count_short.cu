// expect: divergent_barrier
// launch: --grid 1 --block 96 --arg buf:512:zero
// bar.sync 1, 96 reached by warps 0 and 1 only (warp 2 returns first): a counted barrier does not
// count exited warps, so the two wait for a third that never arrives (a GPU hangs).
extern "C" __global__ void dv_named_barrier_count_short(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t >= 64)
        return;
    s[t] = t;
    asm volatile("bar.sync 1, 96;" ::: "memory");
    out[t] = s[63 - t];
}
