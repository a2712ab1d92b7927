// CORRECT: 16x16 tile transpose through a padded shared tile (block 16x16, 2D grid).
extern "C" __global__ void ok_transpose_pad(float* out, const float* in, int n)
{
    __shared__ float tile[16][17];
    int width = gridDim.x * 16;
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int tx = blockIdx.y * 16 + threadIdx.x;
    int ty = blockIdx.x * 16 + threadIdx.y;
    out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}
