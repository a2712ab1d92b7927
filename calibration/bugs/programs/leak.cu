// Planted bug: device memory never freed (memcheck --leak-check full's kind).
#include "common.cuh"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    fill<<<1, 32>>>(a);
    finish("fill");
    return 0;  // a is never freed
}
