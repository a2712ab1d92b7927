// out of bounds in local memory: a per-thread array indexed far past its end (memcheck's kind)
#include "common.cuh"

__global__ void scratch(const int *idx, int *out) {
    int buf[16];
    for (int k = 0; k < 16; ++k) buf[k] = k * threadIdx.x;
    out[threadIdx.x] = buf[idx[threadIdx.x]];  // idx holds 1 << 24 for thread 5
}

int main() {
    int h[32];
    for (int k = 0; k < 32; ++k) h[k] = k % 16;
    h[5] = 1 << 24;
    int *idx, *out;
    CHECK(cudaMalloc(&idx, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice));
    scratch<<<1, 32>>>(idx, out);
    finish("scratch");
    CHECK(cudaFree(idx));
    CHECK(cudaFree(out));
    return 0;
}
