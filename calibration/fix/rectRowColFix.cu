// The seed's rectangular setRowReadCol (calibration/kernels/seeds/rectRowCol.cu) with the change `warpscope fix`
// recommends: `__shared__ int tile[BDIMY][BDIMX + 2];` (the seed's IPAD 2). Launch: grid 1, block 32x16.
#define BDIMX 32
#define BDIMY 16
#define IPAD 0

extern "C" __global__ void rectRowColFix(int *out)
{
    __shared__ int tile[BDIMY][BDIMX + 2];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

#ifdef WARPSCOPE_HOST
#include "../kernels/harness.h"
int main()
{
    return check_int_kernel("rectRowColFix", rectRowColFix, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 0, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 16) * 32 + i / 16); });
}
#endif
