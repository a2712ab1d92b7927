// a failing device assert (every compute-sanitizer tool reports the launch's error)
#include <cassert>
#include "common.cuh"

__global__ void check_positive(const int *a) { assert(a[threadIdx.x] > 0); }

int main() {
    int h[32];
    for (int k = 0; k < 32; ++k) h[k] = k == 7 ? -1 : 1;
    int *a;
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    check_positive<<<1, 32>>>(a);
    finish("check_positive");
    CHECK(cudaFree(a));
    return 0;
}
