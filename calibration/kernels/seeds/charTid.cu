// Seeds 001/004 (8-bit accesses): char shared[32]; shared[tid]. Four lanes share one 32-bit word; on CC 2.0
// and later that is a multicast, not a conflict: one wavefront.
// Launch: grid 1x1x1, block 32x1x1.
extern "C" __global__ void charTid(int *out)
{
    __shared__ char shared[32];
    unsigned int tid = threadIdx.x;
    shared[tid] = (char)(tid + 1);
    __syncthreads();
    char data = shared[tid];
    out[tid] = data;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    return check_int_kernel("charTid", charTid, dim3(1), dim3(32), 0, 32, [](unsigned i) { return (int)(i + 1); });
}
#endif
