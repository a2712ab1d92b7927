// expect: global_race
// launch: --grid 2 --block 4,4,2 --arg buf:256:zero
// 3-D blocks of 4x4x2 threads flattened with a block stride of blockDim.x * blockDim.y (z
// forgotten): block 1's first plane writes the elements of block 0's second plane.
extern "C" __global__ void gr_3d_block_stride_missing_z(int *out) {
    int per = blockDim.x * blockDim.y;
    int i = blockIdx.x * per + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    out[i] = blockIdx.x * 100 + threadIdx.z; // <-
}
