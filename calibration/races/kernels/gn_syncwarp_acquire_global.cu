// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Block 0's lanes write the data, __syncwarp(), lane 0 releases a flag (`st.release.gpu`);
// block 1's lane 0 acquires it (`ld.acquire.gpu`), __syncwarp(), and every lane reads the data:
// the acquisition reaches the other lanes through the warp synchronisation.
extern "C" __global__ void gn_syncwarp_acquire_global(int *data, int *flag, int *out) {
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
    __syncwarp();
    out[t] = data[t];
}
