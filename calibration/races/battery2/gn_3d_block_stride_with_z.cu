// expect: none
// launch: --grid 2 --block 4,4,2 --arg buf:256:zero
// Twin of gr_3d_block_stride_missing_z with the block stride blockDim.x * blockDim.y * blockDim.z.
extern "C" __global__ void gn_3d_block_stride_with_z(int *out) {
    int per = blockDim.x * blockDim.y * blockDim.z;
    int i = blockIdx.x * per + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    out[i] = blockIdx.x * 100 + threadIdx.z;
}
