// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
#include <cuda/atomic>
// The flag handed over through read-modify-write atomics with memory_order_acq_rel (libcu++:
// atom.add.acq_rel.gpu), no fence: the producer's RMW releases the data, the consumer's acquires.
extern "C" __global__ void gn_acq_rel_flag(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 7;
        __syncthreads();
        if (threadIdx.x == 0) f.fetch_add(1, cuda::memory_order_acq_rel);
    } else {
        if (threadIdx.x == 0)
            while (f.fetch_add(0, cuda::memory_order_acq_rel) == 0) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
