// expect: none
// launch: --grid 2,2 --block 16,16 --arg buf:4096
// A 32x32 image updated in place through 2-D grid and block indices: each element by its own thread.
extern "C" __global__ void gn_2d_grid_owner(float *a) {
    int gx = blockIdx.x * blockDim.x + threadIdx.x;
    int gy = blockIdx.y * blockDim.y + threadIdx.y;
    int i = gy * (gridDim.x * blockDim.x) + gx;
    a[i] = a[i] * 2.0f + gx - gy;
}
