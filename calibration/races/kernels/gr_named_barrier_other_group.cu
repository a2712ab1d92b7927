// expect: global_race
// launch: --grid 1 --block 128 --arg buf:512:zero --arg buf:512:zero
// sr_named_barrier_other_group in global memory: two groups of two warps, each with its own
// counted named barrier (1 for warps 0-1, 2 for warps 2-3); a thread reads the slot of the other
// group (t ^ 64), which its barrier does not order.
extern "C" __global__ void gr_named_barrier_other_group(int *a, int *out) {
    int t = threadIdx.x;
    a[t] = t + 1;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = a[t ^ 64];
}
