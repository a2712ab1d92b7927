// leaks at exit: three allocations, one freed, two never freed (memcheck --leak-check full's kind)
#include "common.cuh"

__global__ void fill(int *a, int v) { a[threadIdx.x] = v; }

int main() {
    int *a, *b, *c;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    CHECK(cudaMalloc(&b, 128 * sizeof(int)));
    CHECK(cudaMalloc(&c, 256 * sizeof(int)));
    fill<<<1, 64>>>(a, 1);
    fill<<<1, 128>>>(b, 2);
    fill<<<1, 256>>>(c, 3);
    finish("fill");
    CHECK(cudaFree(b));
    return 0;  // a and c are never freed
}
