// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// gn_atomic_ref_device_seq_cst with memory_order_relaxed store and load: the flag orders nothing,
// block 1's reads of `data` race with block 0's writes.
#include <cuda/atomic>
extern "C" __global__ void gr_atomic_ref_device_relaxed(int *data, int *flag, int *out) {
    int l = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[l] = l + 100;
        __syncwarp();
        if (l == 0) f.store(1, cuda::memory_order_relaxed);
    } else {
        if (l == 0)
            while (f.load(cuda::memory_order_relaxed) == 0) {
            }
        __syncwarp();
        out[l] = data[31 - l];
    }
}
