// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:512:zero
// The named-barrier hand-off in global memory: warp 0 writes its block's part and arrives on
// barrier 3; warp 1 syncs on barrier 3 and reads it.
extern "C" __global__ void gn_named_barrier_global(int *g, int *out) {
    int t = threadIdx.x, b = blockIdx.x * 64;
    if (t < 32) {
        g[b + t] = t + b;
        asm volatile("bar.arrive 3, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 3, 64;" ::: "memory");
        out[b + t] = g[b + 63 - t];
    }
}
