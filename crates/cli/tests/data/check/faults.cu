// Kernels that stop the launch on a GPU: an out-of-bounds store, a trap, a failing assert, and a
// store to __constant__ memory (nvcc -O3 turns it into a trap with no line; see constStore.ptx).
#include <cassert>

__constant__ int table[4];

__global__ void tooSmall(int *out)
{
    out[threadIdx.x] = threadIdx.x;
}

__global__ void traps(int *out)
{
    if (threadIdx.x == 3)
        __trap();
    out[threadIdx.x] = 1;
}

__global__ void asserts(int *out)
{
    assert(threadIdx.x != 5);
    out[threadIdx.x] = 1;
}

__global__ void constWrite(int *out)
{
    int *p = (int *)table;
    p[threadIdx.x] = 1;
    out[threadIdx.x] = table[0];
}
