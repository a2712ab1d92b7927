// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// libcu++'s cuda::atomic_ref<int, cuda::thread_scope_block> on a shared flag: warp 1 writes the
// data, then store(1, memory_order_release); warp 0's lane 0 spins on load(memory_order_acquire),
// and the warp reads the data after __syncwarp() (race-free).
#include <cuda/atomic>
extern "C" __global__ void gn_atomic_ref_block_shared(int *out) {
    __shared__ int data[32];
    __shared__ int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
    if (t >= 32) {
        data[l] = l * 3 + 1;
        __syncwarp();
        if (l == 0) f.store(1, cuda::memory_order_release);
    } else {
        if (l == 0)
            while (f.load(cuda::memory_order_acquire) == 0) {
            }
        __syncwarp();
        out[l] = data[l];
    }
}
