// expect: none
// launch: --grid 2 --block 96 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// The other direction: in block 0 warp 2 writes data, warps 1 and 2 meet at `bar.sync 1, 64`,
// and lane 0 of warp 1 releases a flag; block 1's warp 0 acquires it and reads the data.
extern "C" __global__ void gn_named_barrier_release_chain(int *data, int *flag, int *out) {
    int t = threadIdx.x, w = t / 32;
    if (blockIdx.x == 0) {
        if (w == 0) return;
        if (w == 2) data[t - 64] = t;
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (t == 32) asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
        return;
    }
    if (w != 0) return;
    if (t == 0) {
        int v = 0;
        while (v == 0) asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    }
    __syncwarp();
    out[t] = data[t];
}
