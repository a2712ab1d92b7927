// expect: global_race
// launch: --grid 4 --block 32 --arg buf:16:zero --arg buf:4:zero --arg buf:4:zero
// gn_atomic_ref_last_block_acq_rel with the ticket taken by fetch_add(1, memory_order_relaxed):
// the last block's reads of the other blocks' partials are not ordered after their writes.
#include <cuda/atomic>
extern "C" __global__ void gr_atomic_ref_last_block_relaxed(int *partial, unsigned *ticket, int *out) {
    if (threadIdx.x != 0) return;
    partial[blockIdx.x] = blockIdx.x + 1;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
    if (t.fetch_add(1, cuda::memory_order_relaxed) == gridDim.x - 1) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
        *out = s;
    }
}
