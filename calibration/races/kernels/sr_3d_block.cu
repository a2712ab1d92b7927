// expect: race
// launch: --grid 1 --block 4,4,4 --arg buf:256:zero
// A 3-D block (4x4x4) writes s[z][y][x] and reads the permuted s[x][z][y] with no barrier
// between (race across warps); gn_3d_block has the barrier.
extern "C" __global__ void sr_3d_block(int *out) {
    __shared__ int s[4][4][4];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[z][y][x] = x + y + z;
    out[(z * 4 + y) * 4 + x] = s[x][z][y];
}
