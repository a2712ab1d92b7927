// expect: global_race
// launch: --grid 2,2 --block 8,8 --arg buf:1156
// A 2-D Jacobi step done in place over a 17x17 grid of floats: each thread reads its right and
// lower neighbours, which other threads (of its block or the next) overwrite (race).
extern "C" __global__ void gr_2d_stencil_inplace(float *a) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    a[y * 17 + x] = 0.5f * (a[y * 17 + x + 1] + a[(y + 1) * 17 + x]);
}
