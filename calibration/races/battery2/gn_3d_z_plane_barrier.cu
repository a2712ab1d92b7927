// expect: none
// launch: --grid 1 --block 8,4,2 --arg buf:256 --arg buf:256:zero
// Twin of sr_3d_z_plane_syncwarp with __syncthreads() between the write and the other plane's read.
extern "C" __global__ void gn_3d_z_plane_barrier(const int *in, int *out) {
    __shared__ int s[2][4][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int i = (z * 4 + y) * 8 + x;
    s[z][y][x] = in[i];
    __syncthreads();
    out[i] = s[z ^ 1][y][x];
}
