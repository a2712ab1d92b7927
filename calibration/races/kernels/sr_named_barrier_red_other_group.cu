// expect: race
// launch: --grid 1 --block 128 --arg buf:512:zero
// gn_named_barrier_red reading the other group's slot (t ^ 64): bar.red on barrier 1 orders
// warps 0-1 only, on barrier 2 warps 2-3 only.
extern "C" __global__ void sr_named_barrier_red_other_group(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t & 1;
    unsigned n;
    if (t < 64)
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 1, 64, p; }"
                     : "=r"(n) : "r"(t & 1) : "memory");
    else
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 2, 64, p; }"
                     : "=r"(n) : "r"(t & 1) : "memory");
    out[t] = s[t ^ 64] + (int)n;
}
