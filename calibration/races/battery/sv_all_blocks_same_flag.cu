// expect: same_value_write
// launch: --grid 4 --block 64 --report-same-value-writes --arg buf:1024 --arg buf:4:zero
// Every thread that finds a negative element sets one global "found" word to 1: the same bytes
// written by threads of different blocks, reported as same-value writes with the flag.
extern "C" __global__ void sv_all_blocks_same_flag(const int *in, int *found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] < 0) *found = 1; // <-
}
