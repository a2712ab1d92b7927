// Seed 001 (2-D arrays): float sData[32][33]. The warp fills the array row by row (row i: sData[i][tid],
// conflict-free), then each thread reads the first element of its own row, sData[tid][0]:
// the padding column shifts row r to bank r % 32: no conflict.
// Launch: grid 1x1x1, block 32x1x1.
extern "C" __global__ void col33(float *out)
{
    __shared__ float sData[32][33];
    unsigned int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 32; i++)
        sData[i][tid] = (float)(i * 32 + tid);
    __syncthreads();
    float data = sData[tid][0];
    out[tid] = data;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    DevBuf<float> out(32);
    col33<<<1, 32>>>(out.d);
    launched("col33");
    std::vector<float> want(32);
    for (int t = 0; t < 32; t++) want[t] = (float)(t * 32);
    return expect_equal("col33", out.get(), want);
}
#endif
