// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// Twin of sr_block_branch_missing_barrier with the barrier in both branches of the block-uniform
// condition: the barriers are different instructions but every thread of a block takes the same.
extern "C" __global__ void gn_block_branch_barriers_both(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    int v = s[63 - t];
    if (blockIdx.x % 2 == 0) {
        __syncthreads();
        s[t] = v * 2;
        __syncthreads();
    } else {
        __syncthreads();
        s[t] = v * 3;
        __syncthreads();
    }
    out[i] = s[(t + 1) & 63];
}
