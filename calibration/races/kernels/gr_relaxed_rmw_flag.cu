// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
#include <cuda/atomic>
// The producer releases the data with a release RMW, but the consumer polls the flag with
// memory_order_relaxed RMWs (atom.add.relaxed.gpu) and no fence after: nothing acquires, so its
// reads of the data race with the producer's writes.
extern "C" __global__ void gr_relaxed_rmw_flag(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 7;
        __syncthreads();
        if (threadIdx.x == 0) f.fetch_add(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0)
            while (f.fetch_add(0, cuda::memory_order_relaxed) == 0) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
