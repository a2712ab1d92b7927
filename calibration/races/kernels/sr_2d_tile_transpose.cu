// expect: race
// launch: --grid 1 --block 16,16 --arg buf:1024 --arg buf:1024:zero
// A 2-D block transposes a 16x16 tile through shared memory indexed by threadIdx.y/x, with no
// barrier between the writes and the transposed reads (race across warps); the twin
// gn_2d_tile_transpose has the barrier.
extern "C" __global__ void sr_2d_tile_transpose(const float *in, float *out) {
    __shared__ float tile[16][17];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 16 + x];
    out[y * 16 + x] = tile[x][y];
}
