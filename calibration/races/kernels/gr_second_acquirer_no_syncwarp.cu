// expect: global_race
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:512:zero
// gn_second_acquirer_syncwarp with the second warp's __syncwarp() missing: its lanes 1-31 read the
// data with nothing ordering them after their warp's acquirer.
#include <cuda/atomic>
extern "C" __global__ void gr_second_acquirer_no_syncwarp(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 3 + 1;
        __syncthreads();
        if (t == 0) f.store(1, cuda::memory_order_release);
    } else {
        if ((t & 31) == 0)
            while (f.load(cuda::memory_order_acquire) == 0) {
            }
        if (t < 32) __syncwarp();
        out[t] = data[63 - t];
    }
}
