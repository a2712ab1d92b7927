// expect: none
// launch: --grid 1 --block 128 --arg buf:512:zero --arg buf:512:zero
// Twin of gr_named_barrier_other_group: each thread reads the slot of the other warp of its own
// group (t ^ 32), which its group's barrier orders.
extern "C" __global__ void gn_named_barrier_groups_global(int *a, int *out) {
    int t = threadIdx.x;
    a[t] = t + 1;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = a[t ^ 32];
}
