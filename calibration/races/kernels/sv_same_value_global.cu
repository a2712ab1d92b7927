// expect: same_value_write
// launch: --grid 2 --block 64 --arg buf:4:zero --arg buf:512 --report-same-value-writes
// gn_same_value_global with --report-same-value-writes: the writes of 1 are listed.
extern "C" __global__ void sv_same_value_global(int *found, const int *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] != 12345) *found = 1;
}
