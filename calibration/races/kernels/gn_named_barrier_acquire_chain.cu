// expect: none
// launch: --grid 2 --block 96 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Release/acquire carried on through a named barrier of part of a block. Block 0: warp 0 writes
// data, its lane 0 releases a flag (`st.release.gpu`). Block 1: lane 0 of warp 1 acquires it
// (`ld.acquire.gpu`), then warps 1 and 2 meet at `bar.sync 1, 64` and warp 2 reads the data.
// Warp 0 of block 1 takes no part and touches nothing.
extern "C" __global__ void gn_named_barrier_acquire_chain(int *data, int *flag, int *out) {
    int t = threadIdx.x, w = t / 32;
    if (blockIdx.x == 0) {
        if (w == 0) {
            data[t] = t + 1;
            __syncwarp();
            if (t == 0) asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
        }
        return;
    }
    if (w == 0) return;
    if (t == 32) {
        int v = 0;
        while (v == 0) asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (w == 2) out[t - 64] = data[t - 64];
}
