// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256
// Each block adds the next block's elements (cyclically) to its own, in place. With two blocks,
// each block reads the other's elements while that block rewrites them.
extern "C" __global__ void gr_next_block_grid2(float *a) {
    int t = threadIdx.x;
    int nb = (blockIdx.x + 1) % gridDim.x;
    float v = a[nb * 32 + t]; // <-
    a[blockIdx.x * 32 + t] += v; // <-
}
