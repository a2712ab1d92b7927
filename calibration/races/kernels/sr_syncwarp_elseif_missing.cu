// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// The three-way chain of gn_syncwarp_elseif3 with no __syncwarp() in the middle branch: lanes
// 8-15 write s[lane] and read s[lane + 8] without synchronising, so their write races with lanes
// 0-7's read of it and their read with lanes 16-31's write (the other two groups' __syncwarp()
// orders only each other).
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
extern "C" __global__ void sr_syncwarp_elseif_missing(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = 0;
    if (l < 8) {
        s[l] = l + 100;
        __syncwarp();
        v = ld_shared(&s[l + 8]);
    } else if (l < 16) {
        s[l] = l * 3;
        v = ld_shared(&s[l + 8]) + 1;
    } else {
        s[l] = l ^ 5;
        __syncwarp();
        v = ld_shared(&s[l - 16]) * 2;
    }
    out[l] = v;
}
