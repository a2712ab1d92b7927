// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// A reduction whose warp-synchronous tail starts at 64 threads: thread t < 32 (warp 0) reads
// s[t + 32] while thread t + 32 (warp 1) writes it, through `volatile` and with no barrier. The
// sum depends on the order, but both accesses are volatile, strong in the PTX memory model
// (`ld.volatile` is `ld.relaxed.sys`), and two strong accesses of different warps that overlap
// completely are no data race (docs/check.md, "Fences and flags within a block"): race-free as
// the model defines it, a logic error all the same.
extern "C" __global__ void gn_volatile_tail_two_warps_strong(const int *in, int *out) {
    __shared__ int sm[128];
    volatile int *s = sm;
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 64) {
        int v = s[t + 32];
        s[t] = s[t] + v;
    }
    __syncthreads();
    if (t == 0) out[0] = s[0] + s[1];
}
