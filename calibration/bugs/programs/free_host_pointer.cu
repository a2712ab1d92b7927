// invalid free: cudaFree of a host pointer (memcheck's API-error kind)
#include "common.cuh"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
    int *a;
    static int host[32];
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    fill<<<1, 32>>>(a);
    finish("fill");
    CHECK(cudaFree(host));  // not a device allocation
    CHECK(cudaFree(a));
    return 0;
}
