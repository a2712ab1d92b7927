// expect: race
// launch: --grid 1 --block 16,16 --arg buf:1024 --arg buf:1024:zero
// A 16x16 tile read at the row below (y+1) with no barrier after it is written: row y+1 belongs to
// the same warp for even y and to the next warp for odd y; neither is ordered.
extern "C" __global__ void sr_2d_stencil_nobarrier(const float *in, float *out) {
    __shared__ float s[16][17];
    int x = threadIdx.x, y = threadIdx.y;
    s[y][x] = in[y * 16 + x]; // <-
    float below = y < 15 ? s[y + 1][x] : 0.0f; // <-
    out[y * 16 + x] = below - in[y * 16 + x];
}
