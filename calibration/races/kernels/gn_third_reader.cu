// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:4:zero
// The twin of sr_third_reader with a second barrier between thread 32's read of s[0] and warp
// 0's accesses: after it only warp 0 reads s[0], and its __syncwarp() orders those reads before
// thread 0's write. Race-free.
// ld_shared: a read of shared memory the compiler keeps where the source has it (inline PTX:
// not moved out of its branch, merged with another read or made speculatively by every thread).
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
// ld_relaxed: a .relaxed load of a global word: it orders nothing (no acquire).
__device__ __forceinline__ int ld_relaxed(const int *p) {
    int v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
extern "C" __global__ void gn_third_reader(int *out, const int *tick) {
    __shared__ int s[32];
    int t = threadIdx.x, v = 0;
    if (t < 32) s[t] = t;
    __syncthreads();
    if (t == 32) v = ld_shared(&s[0]);
    __syncthreads();
    if (t < 32) {
        v = ld_shared(&s[0]);
        v += ld_relaxed(tick);
        __syncwarp();
        if (t == 0) s[0] = v + 1;
    }
    out[t] = v;
}
