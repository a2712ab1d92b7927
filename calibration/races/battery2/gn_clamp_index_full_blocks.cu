// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero --arg i32:128
// The kernel of gr_clamp_index_last_block with n = 128, the launch's thread count: no block is
// partial, min(i, n - 1) is i for every thread, each writes its own element.
extern "C" __global__ void gn_clamp_index_full_blocks(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = min(i, n - 1);
    out[j] = in[i] + i;
}
