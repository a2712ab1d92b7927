// expect: global_race
// launch: --grid 4 --block 32 --arg buf:512 --arg buf:512:zero
// Every block but the last writes its own 32 elements; the last block, in the `else`, also
// smooths the previous block's elements in place, which that block is writing. (With the same
// store `out[i] = in[i]` in both branches the compiler hoists it out of the `if` at line 0, and
// the finding names the line before it with a note: docs/check.md.)
extern "C" __global__ void gr_last_block_else_branch(const int *in, int *out) {
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (blockIdx.x != gridDim.x - 1) {
        out[i] = in[i]; // <-
    } else {
        out[i] = in[i] + 1;
        out[i - 32] = out[i - 32] / 2; // <-
    }
}
