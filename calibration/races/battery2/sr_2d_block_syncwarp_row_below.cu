// expect: race
// launch: --grid 1 --block 16,8 --arg buf:512 --arg buf:512:zero
// A 16x8 block: a warp is two rows (y = 2k and 2k + 1). Each thread reads the row below (cyclically)
// after __syncwarp(): for odd rows the row below belongs to the next warp, which nothing orders.
extern "C" __global__ void sr_2d_block_syncwarp_row_below(const int *in, int *out) {
    __shared__ int s[8][16];
    int x = threadIdx.x, y = threadIdx.y, i = y * 16 + x;
    s[y][x] = in[i]; // <-
    __syncwarp();
    out[i] = s[(y + 1) & 7][x] - s[y][x]; // <-
}
