// expect: race
// launch: --grid 1 --block 96 --arg buf:384:zero --arg buf:4:zero
// Readers of s[0] in two phases. Phase 1: thread 64 (warp 2) reads s[0]; the second barrier
// orders that before phase 2. Phase 2: warp 0 reads s[0], makes a relaxed load (ordering
// nothing), and after its __syncwarp() thread 0 writes s[0]; warp 1 reads s[0]. Ordered before
// the write: thread 64's read (a barrier) and warp 0's reads (__syncwarp); not ordered: warp 1's
// reads (another warp, no barrier between), read-write races with thread 0. (The emulator runs
// warp 1 while warp 0 waits: its reads are the third and later of s[0] in phase 2.) The twin
// gn_third_reader_phases moves warp 1's read into phase 1.
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
extern "C" __global__ void sr_third_reader_phases(int *out, const int *tick) {
    __shared__ int s[32];
    int t = threadIdx.x, v = 0;
    if (t < 32) s[t] = t;
    __syncthreads();
    if (t == 64) v = ld_shared(&s[0]);
    __syncthreads();
    if (t < 32) {
        v += ld_shared(&s[0]);
        v += ld_relaxed(tick);
        __syncwarp();
        if (t == 0) s[0] = v + 1;
    }
    if (t >= 32 && t < 64) v += ld_shared(&s[0]);
    out[t] = v;
}
