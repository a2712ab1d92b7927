// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:4:zero
// sv_found_flag_blocks in the default mode: writes of one value from many threads are benign and
// not reported as races (`same_value_write`, off by default).
extern "C" __global__ void gn_found_flag_blocks(const int *in, int *found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] & 1) *found = 1;
}
