// Planted bug: __syncthreads() inside a branch only even threads take (synccheck's kind).
#include "common.cuh"

__global__ void evens(float *out) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
        out[threadIdx.x] = s[threadIdx.x ^ 1];
    }
}

int main() {
    float *out;
    CHECK(cudaMalloc(&out, 64 * sizeof(float)));
    evens<<<1, 64>>>(out);
    finish("evens");
    CHECK(cudaFree(out));
    return 0;
}
