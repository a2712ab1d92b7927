// expect: none
// launch: --grid 1 --block 4,4,4 --arg buf:256:zero
// The twin of sr_3d_block with __syncthreads() between the writes and the permuted reads.
extern "C" __global__ void gn_3d_block(int *out) {
    __shared__ int s[4][4][4];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[z][y][x] = x + y + z;
    __syncthreads();
    out[(z * 4 + y) * 4 + x] = s[x][z][y];
}
