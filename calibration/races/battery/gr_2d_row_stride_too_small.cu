// expect: global_race
// launch: --grid 2,1 --block 16,16 --arg buf:2048:zero
// A 32-wide image written with a row stride of 16: element (x+16, y) of block 1 is element (x, y+1)
// of block 0, written with another value.
extern "C" __global__ void gr_2d_row_stride_too_small(int *out) {
    int gx = blockIdx.x * blockDim.x + threadIdx.x;
    int gy = threadIdx.y;
    out[gy * 16 + gx] = gx * 100 + gy; // <-
}
