// expect: none
// launch: --grid 1 --block 128 --arg buf:512:zero
// Two groups of two warps, each with its own named barrier (1 for warps 0-1, 2 for warps 2-3):
// each thread reads a slot of the other warp of its own group.
extern "C" __global__ void gn_named_barrier_groups(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t + 1;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s[t ^ 32];
}
