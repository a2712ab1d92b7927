// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Block 0 writes its data, __threadfence(), and its thread 0 sets a flag with atomicExch; block
// 1's thread 0 polls the flag with an acquire load of cuda::atomic_ref, backing off with
// __nanosleep(), and a barrier hands the data on to its block.
#include <cuda/atomic>
extern "C" __global__ void gn_nanosleep_acquire_poll(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 5;
        __threadfence();
        __syncthreads();
        if (t == 0) atomicExch(flag, 1);
    } else {
        if (t == 0) {
            cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
            while (f.load(cuda::memory_order_acquire) == 0) __nanosleep(100);
        }
        __syncthreads();
        out[t] = data[t];
    }
}
