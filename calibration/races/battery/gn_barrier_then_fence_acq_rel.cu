// expect: none
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Block 0's threads write, a barrier, then thread 0 makes a fence.acq_rel.gpu and sets a relaxed
// flag; block 1's thread 0 polls the flag with ld.relaxed.gpu, fences with fence.acq_rel.gpu, and a
// barrier hands the data on: the fence-flag-flag-fence pattern orders the block's writes.
extern "C" __global__ void gn_barrier_then_fence_acq_rel(int *data, unsigned *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t + 5;
        __syncthreads();
        if (t == 0) {
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
            asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory");
        }
    } else {
        if (t == 0) {
            unsigned f = 0;
            while (f == 0) asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
        }
        __syncthreads();
        out[t] = data[t];
    }
}
