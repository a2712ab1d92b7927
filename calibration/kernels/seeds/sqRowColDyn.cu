// Seed 000 (square / rectangular shared memory): setRowReadColDyn, extern int tile[].
// Launch: grid 1x1x1, block 32x32x1, dynamic shared memory 4096 bytes.
#define BDIMX 32
#define BDIMY 32
#define IPAD 0

extern "C" __global__ void sqRowColDyn(int *out)
{
    extern __shared__ int tile[];
    unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    tile[row_idx] = row_idx;
    __syncthreads();
    out[row_idx] = tile[col_idx];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("sqRowColDyn", sqRowColDyn, dim3(1, 1, 1), dim3(BDIMX, BDIMY, 1), 4096, BDIMX * BDIMY,
                            [](unsigned i) { return (int)((i % 32) * 32 + i / 32); });
}
#endif
