// expect: none
// launch: --grid 1 --block 96 --arg buf:256:zero
// Release/acquire in shared memory carried on through a named barrier of part of the block:
// warp 0 writes data and releases a shared flag (`st.release.cta`); lane 0 of warp 1 acquires
// it (`ld.acquire.cta`), then warps 1 and 2 meet at `bar.sync 1, 64` and warp 2 reads the data.
__device__ __forceinline__ void st_release_cta(int *p, int v) {
    asm volatile("st.release.cta.shared.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(p)), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acquire_cta(int *p) {
    int v;
    asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)) : "memory");
    return v;
}
extern "C" __global__ void gn_named_barrier_acquire_shared(int *out) {
    __shared__ int data[32];
    __shared__ int flag;
    int t = threadIdx.x, w = t / 32, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (w == 0) {
        data[l] = l * 7;
        __syncwarp();
        if (l == 0) st_release_cta(&flag, 1);
        return;
    }
    if (t == 32) {
        while (ld_acquire_cta(&flag) == 0) {
        }
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (w == 2) out[l] = data[l];
}
