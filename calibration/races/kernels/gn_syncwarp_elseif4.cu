// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// A four-way chain (lanes 0-7, 8-15, 16-23, 24-31), each group writing its s[lane], running
// __syncwarp() in its branch and reading the next group's slot: the four __syncwarp() calls are
// one synchronisation of the warp (race-free).
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
extern "C" __global__ void gn_syncwarp_elseif4(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x, v = 0;
    if (l < 8) {
        s[l] = l + 100;
        __syncwarp();
        v = ld_shared(&s[l + 8]);
    } else if (l < 16) {
        s[l] = l * 3;
        __syncwarp();
        v = ld_shared(&s[l + 8]) + 1;
    } else if (l < 24) {
        s[l] = l ^ 5;
        __syncwarp();
        v = ld_shared(&s[l + 8]) * 2;
    } else {
        s[l] = l - 7;
        __syncwarp();
        v = ld_shared(&s[l - 24]) * 3;
    }
    out[l] = v;
}
