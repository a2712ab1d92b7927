// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// gr_acquire_cta_across_blocks with the poll at .gpu scope: the release and the acquire pair up.
extern "C" __global__ void gn_release_acquire_gpu_ptx(int *data, unsigned *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 9;
        __syncthreads();
        if (t == 0) asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory");
    } else {
        if (t == 0) {
            unsigned f = 0;
            while (f == 0) asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
        }
        __syncthreads();
        out[t] = data[t];
    }
}
