// Seed 001 (64-bit accesses): double shared[32]; shared[tid]. 32 lanes x 8 bytes = 256 bytes: two
// wavefronts, the minimum for a 64-bit access (not a conflict on CC 5.0 and later).
// Launch: grid 1x1x1, block 32x1x1.
extern "C" __global__ void doubleTid(double *out)
{
    __shared__ double shared[32];
    unsigned int tid = threadIdx.x;
    shared[tid] = 0.5 * tid;
    __syncthreads();
    double data = shared[tid];
    out[tid] = data;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    DevBuf<double> out(32);
    doubleTid<<<1, 32>>>(out.d);
    launched("doubleTid");
    std::vector<double> want(32);
    for (int t = 0; t < 32; t++) want[t] = 0.5 * t;
    return expect_equal("doubleTid", out.get(), want);
}
#endif
