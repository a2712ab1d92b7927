// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:1024:zero
// A barrier in one branch of a condition on the block index: the whole block takes one branch.
extern "C" __global__ void gn_barrier_if_blockidx(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * 64 + t;
    if (blockIdx.x & 1) {
        s[t] = in[i];
        __syncthreads();
        out[i] = s[63 - t];
    } else {
        out[i] = in[i] * 2;
    }
}
