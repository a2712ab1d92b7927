// expect: none
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:1024:zero
// gn_cuda_barrier_block in global memory: each thread writes its element of `out`, then
// cuda::barrier<thread_scope_block>::arrive_and_wait(), then reads another warp's element of its
// block (race-free: the mbarrier's phase orders the block's global accesses too).
#include <cuda/barrier>
extern "C" __global__ void gn_cuda_barrier_global(const int *in, int *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x, base = blockIdx.x * 128;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    out[base + t] = in[base + t] * 3;
    bar.arrive_and_wait();
    int v = out[base + (t + 32) % 128];
    bar.arrive_and_wait();
    out[base + t] += v;
}
