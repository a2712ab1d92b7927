// expect: race
// launch: --grid 1 --block 96 --arg buf:512:zero
// gn_named_barrier_chain with the barriers the other way round: warps 1 and 2 meet at barrier 2
// before warps 0 and 1 meet at barrier 1, so nothing orders warp 0's write before warp 2's read.
extern "C" __global__ void sr_named_barrier_chain_order(int *out) {
    __shared__ int s[32];
    int t = threadIdx.x, w = t / 32, l = t % 32;
    if (w == 0)
        s[l] = l * 3;
    if (w > 0)
        asm volatile("bar.sync 2, 64;" ::: "memory");
    if (w < 2)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    if (w == 2)
        out[t] = *(volatile int *)&s[31 - l];
}
