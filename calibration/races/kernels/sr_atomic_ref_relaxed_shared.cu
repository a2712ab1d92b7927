// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// gn_atomic_ref_block_shared with memory_order_relaxed on both sides: the flag is strong, so it
// does not race itself, but it orders nothing: warp 0's reads of `data` race with warp 1's writes.
#include <cuda/atomic>
extern "C" __global__ void sr_atomic_ref_relaxed_shared(int *out) {
    __shared__ int data[32];
    __shared__ int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
    if (t >= 32) {
        data[l] = l * 3 + 1;
        __syncwarp();
        if (l == 0) f.store(1, cuda::memory_order_relaxed);
    } else {
        if (l == 0)
            while (f.load(cuda::memory_order_relaxed) == 0) {
            }
        __syncwarp();
        out[l] = data[l];
    }
}
