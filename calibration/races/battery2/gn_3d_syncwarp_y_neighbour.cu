// expect: none
// launch: --grid 1 --block 8,4,2 --arg buf:256 --arg buf:256:zero
// In the same 8x4x2 block, each thread reads the cell of its y-neighbour in its own z-plane: the
// same warp, so __syncwarp() is enough.
extern "C" __global__ void gn_3d_syncwarp_y_neighbour(const int *in, int *out) {
    __shared__ int s[2][4][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int i = (z * 4 + y) * 8 + x;
    s[z][y][x] = in[i];
    __syncwarp();
    out[i] = s[z][(y + 1) & 3][x];
}
