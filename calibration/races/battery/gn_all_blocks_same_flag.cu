// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:4:zero
// sv_all_blocks_same_flag without --report-same-value-writes: same-value writes are not races by
// default.
extern "C" __global__ void gn_all_blocks_same_flag(const int *in, int *found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] < 0) *found = 1;
}
