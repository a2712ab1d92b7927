// expect: none
// launch: --grid 1 --block 16,16 --arg buf:1024 --arg buf:1024:zero
// sr_2d_stencil_nobarrier with the barrier between the tile's writes and the neighbour reads.
extern "C" __global__ void gn_2d_stencil_barrier(const float *in, float *out) {
    __shared__ float s[16][17];
    int x = threadIdx.x, y = threadIdx.y;
    s[y][x] = in[y * 16 + x];
    __syncthreads();
    float below = y < 15 ? s[y + 1][x] : 0.0f;
    out[y * 16 + x] = below - in[y * 16 + x];
}
