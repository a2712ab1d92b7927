// expect: none
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:1024:zero
// A barrier inside an if whose condition is a shared value thread 0 wrote before a barrier: every
// thread of the block sees the same value, so the barrier is uniform per block (block 0 and block 1
// may differ).
extern "C" __global__ void gn_barrier_shared_uniform_if(const int *in, int *out) {
    __shared__ int s[128];
    __shared__ int take;
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    if (t == 0) take = (blockIdx.x == 0);
    s[t] = in[i];
    __syncthreads();
    if (take) {
        s[t] += 1;
        __syncthreads();
    }
    __syncthreads();
    out[i] = s[127 - t];
}
