// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg alias:0
// Twin of gr_alias_in_out_shift with `in` and `out` the same address: each thread reads and then
// writes its own element only (an in-place map).
extern "C" __global__ void gn_alias_in_out_same(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    out[i] = v * 2 + 1;
}
