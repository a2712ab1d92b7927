// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// The flag is stored with st.relaxed.gpu (no release, no fence before it) and read with
// ld.acquire.gpu: an acquire needs a release to pair with, so the data is not ordered.
__device__ void store_relaxed(int *p, int v) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); }
__device__ int load_acquire(int *p) {
    int v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
extern "C" __global__ void gr_relaxed_flag_store(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) store_relaxed(flag, 1);
    } else {
        if (threadIdx.x == 0)
            while (load_acquire(flag) == 0) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
