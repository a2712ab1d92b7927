// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// gn_release_acquire with the flag's release and acquire at block scope (cuda::thread_scope_block,
// st.release.cta / ld.acquire.cta): the two blocks are outside each other's scope, so the pair
// orders nothing between them and the data read races with the data write.
#include <cuda/atomic>
extern "C" __global__ void gr_release_cta_across_blocks(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 7;
        __syncthreads();
        if (threadIdx.x == 0) f.store(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0)
            while (f.load(cuda::memory_order_acquire) == 0) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
