// expect: none
// launch: --grid 2,2,2 --block 4,4,2 --arg buf:1024:zero
// The twin of gr_3d_grid_missing_z with blockIdx.z in the flat index: every element once.
__global__ void grid3d_index(int *a) {
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int i = bx * (blockDim.x * blockDim.y * blockDim.z) + tid;
    a[i] = blockIdx.z * 1000 + tid;
}
