// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// __shfl_down_sync with a width of 16: each half-warp reduces its own 16 values; every lane
// writes its own element.
extern "C" __global__ void gn_shfl_width16_segments(const int *in, int *out) {
    int t = threadIdx.x;
    int v = in[t] & 255;
    for (int d = 8; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d, 16);
    out[t] = v;
}
