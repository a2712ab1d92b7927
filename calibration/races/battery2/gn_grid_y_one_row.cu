// expect: none
// launch: --grid 2,1 --block 64 --arg buf:1024 --arg buf:512
// The kernel of gr_grid_y_ignored launched with one row of blocks (2x1): the index that forgets
// blockIdx.y is still one element per thread.
extern "C" __global__ void gn_grid_y_one_row(const int *in, int *acc) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    acc[i] += in[j];
}
