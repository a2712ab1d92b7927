// Planted bug: a store one element past the end of a buffer (memcheck's kind).
#include "common.cuh"

__global__ void past_end(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i + 1] = i;  // the last thread writes a[n]
}

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    past_end<<<1, 64>>>(a, 64);
    finish("past_end");
    CHECK(cudaFree(a));
    return 0;
}
