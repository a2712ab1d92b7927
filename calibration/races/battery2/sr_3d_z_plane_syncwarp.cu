// expect: race
// launch: --grid 1 --block 8,4,2 --arg buf:256 --arg buf:256:zero
// A block of 8x4x2 threads: each z-plane of 32 threads is one warp. Each thread writes its cell
// and reads the cell of the other plane after __syncwarp(), which orders one warp only.
extern "C" __global__ void sr_3d_z_plane_syncwarp(const int *in, int *out) {
    __shared__ int s[2][4][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int i = (z * 4 + y) * 8 + x;
    s[z][y][x] = in[i]; // <-
    __syncwarp();
    out[i] = s[z ^ 1][y][x]; // <-
}
