// Seeds 001/004 (8-bit accesses): char shared[128]; shared[4 * tid]: one byte in each of 32 banks.
// Launch: grid 1x1x1, block 32x1x1.
extern "C" __global__ void char4Tid(int *out)
{
    __shared__ char shared[128];
    unsigned int tid = threadIdx.x;
    shared[4 * tid] = (char)(tid + 1);
    __syncthreads();
    char data = shared[4 * tid];
    out[tid] = data;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("char4Tid", char4Tid, dim3(1), dim3(32), 0, 32, [](unsigned i) { return (int)(i + 1); });
}
#endif
