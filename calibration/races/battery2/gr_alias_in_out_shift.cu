// expect: global_race
// launch: --grid 2 --block 64 --arg buf:516 --arg alias:0+4
// `in` and `out` are one buffer one element apart, as `k(a, a + 1)` passes them: thread i reads
// a[i] and writes a[i + 1], which thread i + 1 reads, across the block edge too.
extern "C" __global__ void gr_alias_in_out_shift(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i]; // <-
    out[i] = v * 2 + 1; // <-
}
