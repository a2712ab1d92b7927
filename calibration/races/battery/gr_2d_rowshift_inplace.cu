// expect: global_race
// launch: --grid 1,4 --block 32,4 --arg buf:2048
// A 32x16 image shifted down one row in place: the thread of row r writes row r+1 while the thread
// of row r+1 (another warp, or another block for the last row of a block) reads it.
extern "C" __global__ void gr_2d_rowshift_inplace(float *a) {
    int x = threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row + 1 < 16) {
        float v = a[row * 32 + x]; // <-
        a[(row + 1) * 32 + x] = v; // <-
    }
}
