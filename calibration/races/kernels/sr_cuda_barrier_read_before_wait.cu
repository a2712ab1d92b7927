// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// gn_cuda_barrier_block with the read of another warp's slot between the split arrive() and its
// wait(): the arrival releases the thread's write, but nothing is acquired before the read.
#include <cuda/barrier>
extern "C" __global__ void sr_cuda_barrier_read_before_wait(const int *in, int *out) {
    __shared__ int s[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    s[t] = in[t];
    auto token = bar.arrive();
    int v = s[(t + 32) % 128];
    bar.wait(std::move(token));
    out[t] = v;
}
