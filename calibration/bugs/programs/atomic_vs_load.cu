// Planted bug: threads add to a counter atomically while others read it with a plain load.
#include "common.cuh"

__global__ void count(int *counter, int *out) {
    atomicAdd(counter, 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = *counter;
}

int main() {
    int *counter, *out;
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&out, 128 * sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    count<<<2, 64>>>(counter, out);
    finish("count");
    CHECK(cudaFree(counter));
    CHECK(cudaFree(out));
    return 0;
}
