// expect: none
// launch: --grid 1 --block 16,8 --arg buf:512 --arg buf:512:zero
// Twin of sr_2d_block_syncwarp_row_below: each thread reads row y ^ 1, the other row of its own
// warp, so __syncwarp() orders the write and the read.
extern "C" __global__ void gn_2d_block_syncwarp_row_pair(const int *in, int *out) {
    __shared__ int s[8][16];
    int x = threadIdx.x, y = threadIdx.y, i = y * 16 + x;
    s[y][x] = in[i];
    __syncwarp();
    out[i] = s[y ^ 1][x] - s[y][x];
}
