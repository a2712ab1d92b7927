// Seed 000 (square / rectangular shared memory): setRowReadRow, int tile[32][32].
// Launch: grid 1x1x1, block 32x32x1, dynamic shared memory 0 bytes.
#define BDIMX 32
#define BDIMY 32
#define IPAD 0

extern "C" __global__ void sqRowRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("sqRowRow", sqRowRow, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 0, BDIMX * BDIMY,
                            [](unsigned i) { return (int)(i); });
}
#endif
