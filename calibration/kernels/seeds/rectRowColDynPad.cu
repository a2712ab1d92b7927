// Seed 000 (square / rectangular shared memory): rectangular setRowReadColDynPad, extern int tile[], IPAD=2.
// Launch: grid 1x1x1, block 32x16x1, dynamic shared memory 2176 bytes.
#define BDIMX 32
#define BDIMY 16
#define IPAD 2

extern "C" __global__ void rectRowColDynPad(int *out)
{
    extern __shared__ int tile[];
    unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = g_idx / blockDim.y;
    unsigned int icol = g_idx % blockDim.y;
    unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned int col_idx = icol * (blockDim.x + IPAD) + irow;
    tile[row_idx] = g_idx;
    __syncthreads();
    out[g_idx] = tile[col_idx];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("rectRowColDynPad", rectRowColDynPad, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 2176, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 16) * 32 + i / 16); });
}
#endif
