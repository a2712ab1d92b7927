// Seed 000 (square / rectangular shared memory): rectangular setRowReadColDyn, extern int tile[].
// Launch: grid 1x1x1, block 32x16x1, dynamic shared memory 2048 bytes.
#define BDIMX 32
#define BDIMY 16
#define IPAD 0

extern "C" __global__ void rectRowColDyn(int *out)
{
    extern __shared__ int tile[];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    unsigned int col_idx = icol * blockDim.x + irow;
    tile[idx] = idx;
    __syncthreads();
    out[idx] = tile[col_idx];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("rectRowColDyn", rectRowColDyn, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 2048, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 16) * 32 + i / 16); });
}
#endif
