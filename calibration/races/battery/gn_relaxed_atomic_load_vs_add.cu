// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:128:zero
#include <cuda/atomic>
// Block 0 adds to counters with atomicAdd while block 1 reads them with relaxed atomic loads
// (cuda::atomic_ref, device scope): two atomics do not race, whatever value the load sees.
extern "C" __global__ void gn_relaxed_atomic_load_vs_add(int *c, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        atomicAdd(&c[t], t + 1);
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> r(c[t]);
        out[t] = r.load(cuda::memory_order_relaxed);
    }
}
