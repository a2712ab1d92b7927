// expect: none
// launch: --grid 1 --block 16,16 --arg buf:1024 --arg buf:1024:zero
// The twin of sr_2d_tile_transpose with __syncthreads() between the writes and the reads.
extern "C" __global__ void gn_2d_tile_transpose(const float *in, float *out) {
    __shared__ float tile[16][17];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 16 + x];
    __syncthreads();
    out[y * 16 + x] = tile[x][y];
}
