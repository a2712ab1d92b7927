// expect: race
// launch: --grid 1 --block 128 --arg buf:512:zero
// gn_named_barrier_groups reading a slot of the other group (t ^ 64): barrier 1 does not order
// warps 2-3, nor barrier 2 warps 0-1.
extern "C" __global__ void sr_named_barrier_other_group(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t + 1;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s[t ^ 64];
}
