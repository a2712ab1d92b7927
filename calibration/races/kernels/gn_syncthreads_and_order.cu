// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// __syncthreads_and() orders the block as __syncthreads() does: writes before it, the other
// threads' reads after it.
extern "C" __global__ void gn_syncthreads_and_order(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    int all = __syncthreads_and(s[t] >= 0);
    out[t] = s[127 - t] + all;
}
