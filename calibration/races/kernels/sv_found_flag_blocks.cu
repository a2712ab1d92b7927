// expect: same_value_write
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:4:zero --report-same-value-writes
// A search: every thread whose element is odd sets the `found` flag to 1 (threads of four
// blocks). With --report-same-value-writes these writes of one value are listed as their own kind.
extern "C" __global__ void sv_found_flag_blocks(const int *in, int *found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] & 1) *found = 1;
}
