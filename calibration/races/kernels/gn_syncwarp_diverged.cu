// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 0-15 write s[lane] and run __syncwarp(); lanes 16-31 run __syncwarp() in the other branch
// and then read s[lane-16]. On sm_70 and later the __syncwarp() of both branches is one
// synchronisation of the warp's lanes (every lane of the mask arrives at some __syncwarp), so the
// writes come before the reads (race-free; the twin sr_syncwarp_diverged reads before it).
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
extern "C" __global__ void gn_syncwarp_diverged(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = 0;
    if (l < 16) {
        s[l] = l + 100;
        __syncwarp();
    } else {
        __syncwarp();
        v = ld_shared(&s[l - 16]);
    }
    out[l] = v;
}
