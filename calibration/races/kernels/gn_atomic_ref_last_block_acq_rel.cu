// expect: none
// launch: --grid 4 --block 32 --arg buf:16:zero --arg buf:4:zero --arg buf:4:zero
// The last-block reduction with a cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket
// taken by fetch_add(1, memory_order_acq_rel) and no __threadfence(): each block's lane 0 writes
// its partial, takes a ticket; the block that takes the last one reads every partial (the
// acq_rel RMWs form a release sequence, race-free).
#include <cuda/atomic>
extern "C" __global__ void gn_atomic_ref_last_block_acq_rel(int *partial, unsigned *ticket, int *out) {
    if (threadIdx.x != 0) return;
    partial[blockIdx.x] = blockIdx.x + 1;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
    if (t.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
        *out = s;
    }
}
