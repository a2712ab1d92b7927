// double free: cudaFree of a pointer already freed (memcheck's API-error kind)
#include "common.cuh"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    fill<<<1, 32>>>(a);
    finish("fill");
    CHECK(cudaFree(a));
    CHECK(cudaFree(a));  // already freed
    return 0;
}
