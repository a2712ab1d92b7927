// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
#include <cuda/atomic>
// The flag handed over with release/acquire atomics (libcu++), no separate fence.
extern "C" __global__ void gn_release_acquire(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 5;
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
