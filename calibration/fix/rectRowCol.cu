// Seed 000 (square / rectangular shared memory): rectangular setRowReadCol (irow/icol transpose), int tile[16][32].
// Launch: grid 1x1x1, block 32x16x1, dynamic shared memory 0 bytes.
#define BDIMX 32
#define BDIMY 16
#define IPAD 0

extern "C" __global__ void rectRowCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
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
    return check_int_kernel("rectRowCol", rectRowCol, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 0, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 16) * 32 + i / 16); });
}
#endif
