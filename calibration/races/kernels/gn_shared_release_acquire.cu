// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// Release and acquire operations at block scope on a shared flag (what cuda::atomic_ref<int,
// cuda::thread_scope_block> emits for store(release) and load(acquire)): warp 1 writes the data,
// then st.release.cta the flag; warp 0's lane 0 polls it with ld.acquire.cta, then the warp reads
// the data after __syncwarp() (race-free).
__device__ __forceinline__ void st_release_cta(int *p, int v) {
    asm volatile("st.release.cta.shared.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(p)), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acquire_cta(int *p) {
    int v;
    asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)) : "memory");
    return v;
}
extern "C" __global__ void gn_shared_release_acquire(int *out) {
    __shared__ int data[32];
    __shared__ int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[l] = l * 7;
        __syncwarp();
        if (l == 0) st_release_cta(&flag, 1);
    } else {
        if (l == 0) {
            while (ld_acquire_cta(&flag) == 0) {
            }
        }
        __syncwarp();
        out[l] = data[l];
    }
}
