// expect: none
// launch: --grid 2,2 --block 8,8 --arg buf:1156 --arg buf:1156:zero
// The twin of gr_2d_stencil_inplace writing a separate output (race-free).
extern "C" __global__ void gn_2d_stencil(const float *a, float *b) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    b[y * 17 + x] = 0.5f * (a[y * 17 + x + 1] + a[(y + 1) * 17 + x]);
}
