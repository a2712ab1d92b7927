// expect: global_race
// launch: --grid 2,2,2 --block 4,4,2 --arg buf:1024:zero
// A 3-D grid of 3-D blocks whose flat index forgets blockIdx.z: the blocks z = 0 and z = 1 write
// the same elements with different values.
__global__ void grid3d_missing_z(int *a) {
    int bx = blockIdx.x + gridDim.x * blockIdx.y;
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int i = bx * (blockDim.x * blockDim.y * blockDim.z) + tid;
    a[i] = blockIdx.z * 1000 + tid;
}
