// expect: none
// launch: --grid 1 --block 128 --arg buf:512:zero
// bar.red.popc on a counted named barrier per group of two warps (1: warps 0-1, 2: warps 2-3):
// each thread publishes a flag, counts the group's flags and reads its partner warp's slot.
extern "C" __global__ void gn_named_barrier_red(int *out) {
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
    out[t] = s[t ^ 32] + (int)n;
}
