// uninitialised read in a later launch: the first launch writes even elements, the second reads all
#include "common.cuh"

__global__ void evens(int *a) { a[2 * threadIdx.x] = threadIdx.x; }
__global__ void sum_pairs(const int *a, int *out) { out[threadIdx.x] = a[2 * threadIdx.x] + a[2 * threadIdx.x + 1]; }

int main() {
    int *a, *out;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    evens<<<1, 32>>>(a);
    finish("evens");
    sum_pairs<<<1, 32>>>(a, out);  // the odd elements were never written
    finish("sum_pairs");
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    return 0;
}
