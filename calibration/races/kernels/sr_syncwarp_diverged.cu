// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 0-15 write s[lane] and run __syncwarp(); lanes 16-31 read s[lane-16] BEFORE their own
// __syncwarp() in the other branch. The two __syncwarp() calls synchronise together (sm_70 and
// later), but the reads come before it: nothing orders them after the writes (race). The twin
// gn_syncwarp_diverged reads after its __syncwarp().
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
extern "C" __global__ void sr_syncwarp_diverged(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = 0;
    if (l < 16) {
        s[l] = l + 100;
        __syncwarp();
    } else {
        v = ld_shared(&s[l - 16]);
        __syncwarp();
    }
    out[l] = v;
}
