// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// A cuda::barrier<cuda::thread_scope_block> in shared memory (an mbarrier) as the block's only
// synchronisation: each thread writes its slot, then arrive_and_wait(); then it reads another
// warp's slot, and the split form (arrive, then wait on the token) orders the second exchange
// (race-free: an arrival releases, a wait that sees the phase complete acquires every arrival).
#include <cuda/barrier>
extern "C" __global__ void gn_cuda_barrier_block(const int *in, int *out) {
    __shared__ int s[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    s[t] = in[t];
    bar.arrive_and_wait();
    int v = s[127 - t];
    bar.arrive_and_wait();
    s[t] = v * 2;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    out[t] = s[(t + 32) % 128];
}
