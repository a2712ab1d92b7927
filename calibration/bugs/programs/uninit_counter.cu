// Planted bug: a histogram whose bins were never zeroed (cudaMalloc does not clear memory):
// every atomicAdd reads bytes nothing wrote.
#include "common.cuh"

__global__ void histogram(const int *in, int *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i] & 7], 1);
}

int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i * 7;
    int *in, *bins;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&bins, 8 * sizeof(int)));  // never zeroed
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    histogram<<<2, 128>>>(in, bins, n);
    finish("histogram");
    CHECK(cudaFree(in));
    CHECK(cudaFree(bins));
    return 0;
}
