// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero --arg i32:100
// The index is clamped instead of guarded: with n = 100 the threads 99..127 of the last, partial
// block all write out[99] with different values. Only the last block races.
extern "C" __global__ void gr_clamp_index_last_block(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = min(i, n - 1);
    out[j] = in[i] + i; // <-
}
