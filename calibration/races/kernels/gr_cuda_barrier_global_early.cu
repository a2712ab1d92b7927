// expect: global_race
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:1024:zero
// gn_cuda_barrier_global with the read of another warp's element between arrive() and wait():
// the arrival releases the thread's write, but the read acquires nothing.
#include <cuda/barrier>
extern "C" __global__ void gr_cuda_barrier_global_early(const int *in, int *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x, base = blockIdx.x * 128;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    out[base + t] = in[base + t] * 3;
    auto token = bar.arrive();
    int v = out[base + (t + 32) % 128];
    bar.wait(std::move(token));
    bar.arrive_and_wait();
    out[base + t] += v;
}
