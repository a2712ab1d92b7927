// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:4:zero
// Warp 0 fills s; a barrier orders that before the rest. Warp 0 reads s[0], makes a relaxed load
// (which orders nothing), and after warp 0's __syncwarp() thread 0 writes s[0]. Thread 32 (warp
// 1) reads s[0] after the barrier too: nothing orders that read before thread 0's write (another
// warp, no barrier between), a read-write race. The __syncwarp orders only warp 0's own reads
// before the write. (The emulator runs warp 1 while warp 0 waits on its relaxed load: thread
// 32's read comes after warp 0's, so a checker that keeps two readers per byte, threads 0 and 1
// here, has no room for it and misses the race.) The twin gn_third_reader puts a barrier between
// thread 32's read and warp 0's accesses.
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
extern "C" __global__ void sr_third_reader(int *out, const int *tick) {
    __shared__ int s[32];
    int t = threadIdx.x, v = 0;
    if (t < 32) s[t] = t;
    __syncthreads();
    if (t < 32) {
        v = ld_shared(&s[0]);
        v += ld_relaxed(tick);
        __syncwarp();
        if (t == 0) s[0] = v + 1;
    }
    if (t == 32) v = ld_shared(&s[0]);
    out[t] = v;
}
