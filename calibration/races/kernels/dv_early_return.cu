// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero --arg i32:40
// Threads 40-63 return before a __syncthreads() the others reach: a barrier in conditional code
// whose condition the block's threads do not agree on (barrier divergence).
extern "C" __global__ void dv_early_return(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = t;
    __syncthreads();
    out[t] = s[(t + 1) % n];
}
