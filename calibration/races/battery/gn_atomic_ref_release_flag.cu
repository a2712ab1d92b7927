// expect: none
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
#include <cuda/atomic>
// The flag raised by a fetch_add with memory_order_release after a barrier, polled by a load with
// memory_order_acquire (libcu++, device scope): release/acquire through a read-modify-write.
extern "C" __global__ void gn_atomic_ref_release_flag(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = 3 * t;
        __syncthreads();
        if (t == 0) f.fetch_add(1, cuda::memory_order_release);
    } else {
        if (t == 0)
            while (f.load(cuda::memory_order_acquire) == 0) {
            }
        __syncthreads();
        out[t] = data[t];
    }
}
