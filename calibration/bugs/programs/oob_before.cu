// out of bounds before a buffer: thread 0 reads a[-1] (memcheck's kind)
#include "common.cuh"

__global__ void left(const int *a, int *out) {
    int i = threadIdx.x;
    out[i] = a[i - 1];  // i == 0 reads one element before a
}

int main() {
    int *a, *out;
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    CHECK(cudaMemset(a, 0, 32 * sizeof(int)));
    left<<<1, 32>>>(a, out);
    finish("left");
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    return 0;
}
