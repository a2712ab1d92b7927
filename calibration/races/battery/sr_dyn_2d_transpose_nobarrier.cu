// expect: race
// launch: --grid 1 --block 16,16 --dyn-smem 1024 --arg buf:1024 --arg buf:1024:zero
// A transpose through dynamic shared memory sized by the launch (blockDim.x x blockDim.y floats):
// the column read s[x][y] comes with no barrier after the row writes.
extern "C" __global__ void sr_dyn_2d_transpose_nobarrier(const float *in, float *out) {
    extern __shared__ float s[];
    int x = threadIdx.x, y = threadIdx.y, w = blockDim.x;
    s[y * w + x] = in[y * w + x]; // <-
    out[y * w + x] = s[x * w + y]; // <-
}
