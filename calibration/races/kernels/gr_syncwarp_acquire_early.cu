// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// The twin of gn_syncwarp_acquire_global with block 1's lanes reading before the __syncwarp():
// only lane 0, which acquired, is ordered after block 0's writes.
extern "C" __global__ void gr_syncwarp_acquire_early(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t + 1;
        __syncwarp();
        if (t == 0) asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
        return;
    }
    if (t == 0) {
        int v = 0;
        while (v == 0) asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    }
    out[t] = data[t];
    __syncwarp();
}
