// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero
// printf in a kernel (thread 0 of each block) beside each thread's own store.
#include <cstdio>
__global__ void printf_kernel(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 2;
    if (threadIdx.x == 0) printf("block %d: a[%d] = %d, %f\n", blockIdx.x, i, a[i], 0.5 * i);
}
