// use after free: a kernel reads a buffer the host already freed (memcheck's kind)
#include "common.cuh"

__global__ void read_all(const int *a, int *out) { out[threadIdx.x] = a[threadIdx.x] + 1; }

int main() {
    int *a, *out;
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    CHECK(cudaMemset(a, 0, 32 * sizeof(int)));
    CHECK(cudaFree(a));
    read_all<<<1, 32>>>(a, out);  // a is freed
    finish("read_all");
    CHECK(cudaFree(out));
    return 0;
}
