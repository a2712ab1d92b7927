// expect: none
// launch: --grid 2 --block 64 --arg buf:4096 --arg buf:4096:zero --arg i32:1000
// A grid-stride loop: every element is read and written by one thread.
extern "C" __global__ void gn_grid_stride(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = 3.0f * x[i] + y[i];
}
