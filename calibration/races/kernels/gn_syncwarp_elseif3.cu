// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// An if / else if / else chain: lanes 0-7, 8-15 and 16-31 each write their own s[lane], run
// __syncwarp() in their branch, then read a slot another group wrote. On sm_70 and later every
// lane of the mask arrives at some __syncwarp(): the three are one synchronisation, so every
// write comes before every read (race-free).
__device__ __forceinline__ int ld_shared(const int *p) {
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}
extern "C" __global__ void gn_syncwarp_elseif3(int *out) {
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
    } else {
        s[l] = l ^ 5;
        __syncwarp();
        v = ld_shared(&s[l - 16]) * 2;
    }
    out[l] = v;
}
