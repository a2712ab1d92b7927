// expect: none
// launch: --grid 1 --block 96 --arg buf:512:zero
// Order through a chain of named barriers: warps 0 and 1 meet at barrier 1, then warps 1 and 2
// at barrier 2; warp 2 then reads what warp 0 wrote before barrier 1.
extern "C" __global__ void gn_named_barrier_chain(int *out) {
    __shared__ int s[32];
    int t = threadIdx.x, w = t / 32, l = t % 32;
    if (w == 0)
        s[l] = l * 3;
    if (w < 2)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    if (w > 0)
        asm volatile("bar.sync 2, 64;" ::: "memory");
    if (w == 2)
        out[t] = s[31 - l];
}
