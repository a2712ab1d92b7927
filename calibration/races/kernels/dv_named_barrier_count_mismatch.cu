// expect: divergent_barrier
// launch: --grid 1 --block 96 --arg buf:512:zero
// The warps of one named barrier give different thread counts (warp 0 bar.sync 1, 96, warps 1
// and 2 bar.sync 1, 64): every thread that takes part in a barrier must give the same count.
extern "C" __global__ void dv_named_barrier_count_mismatch(int *out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 32)
        asm volatile("bar.sync 1, 96;" ::: "memory");
    else
        asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t] = s[95 - t];
}
