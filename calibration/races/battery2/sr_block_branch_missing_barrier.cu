// expect: race
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// Three phases separated by barriers; the branch on the block's parity (uniform in a block, so
// no divergence) drops the second barrier in odd blocks: block 1 reads its neighbour's slot while
// that thread still writes it.
extern "C" __global__ void sr_block_branch_missing_barrier(const int *in, int *out) {
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
        s[t] = v * 3; // <-
    }
    out[i] = s[(t + 1) & 63]; // <-
}
