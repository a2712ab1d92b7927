// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Fence-based synchronisation with relaxed operations (PTX memory model): data, fence.acq_rel.gpu,
// st.relaxed.gpu flag; the reader's ld.relaxed.gpu of the flag, then fence.acq_rel.gpu, then data.
__device__ void store_relaxed(int *p, int v) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); }
__device__ int load_relaxed(int *p) {
    int v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
extern "C" __global__ void gn_fence_relaxed_pair(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
            store_relaxed(flag, 1);
        }
    } else {
        if (threadIdx.x == 0) {
            while (load_relaxed(flag) == 0) {
            }
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
