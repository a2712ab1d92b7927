// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Message passing between two blocks through a global flag as cuda::atomic_ref<int,
// cuda::thread_scope_device> with the default (seq_cst) order: block 0 writes the data, then
// stores the flag; block 1's lane 0 spins on load(), then its warp reads after __syncwarp().
#include <cuda/atomic>
extern "C" __global__ void gn_atomic_ref_device_seq_cst(int *data, int *flag, int *out) {
    int l = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[l] = l + 100;
        __syncwarp();
        if (l == 0) f.store(1);
    } else {
        if (l == 0)
            while (f.load() == 0) {
            }
        __syncwarp();
        out[l] = data[31 - l];
    }
}
