// expect: none
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:512:zero
// Block 0 writes data and releases a flag (st.release.gpu). In block 1 lane 0 of each of the two
// warps acquires the flag (ld.acquire.gpu) and its warp's __syncwarp() hands the acquisition to
// the other lanes, which read the data. Two threads acquire one release; each warp's lanes are
// ordered through their own warp's acquirer.
#include <cuda/atomic>
extern "C" __global__ void gn_second_acquirer_syncwarp(int *data, int *flag, int *out) {
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
        __syncwarp();
        out[t] = data[63 - t];
    }
}
