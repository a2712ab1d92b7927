// expect: global_race
// launch: --grid 2,2 --block 64 --arg buf:1024 --arg buf:512
// The index forgets blockIdx.y: with a grid of 2x2 blocks, blocks (x, 0) and (x, 1) add into the
// same elements with a plain read-modify-write. With one row of blocks it is race-free
// (gn_grid_y_one_row).
extern "C" __global__ void gr_grid_y_ignored(const int *in, int *acc) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    acc[i] += in[j]; // <-
}
