// Seed 000 (square / rectangular shared memory): setRowReadColDynPad, extern int tile[], IPAD=1.
// Launch: grid 1x1x1, block 32x32x1, dynamic shared memory 4224 bytes.
#define BDIMX 32
#define BDIMY 32
#define IPAD 1

extern "C" __global__ void sqRowColDynPad(int *out)
{
    extern __shared__ int tile[];
    unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned int col_idx = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[row_idx] = g_idx;
    __syncthreads();
    out[g_idx] = tile[col_idx];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("sqRowColDynPad", sqRowColDynPad, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 4224, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 32) * 32 + i / 32); });
}
#endif
