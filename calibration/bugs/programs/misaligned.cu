// Planted bug: a 4-byte load from an address that is not a multiple of 4 (memcheck's kind).
#include "common.cuh"

__global__ void unaligned(const char *bytes, int *out) {
    out[threadIdx.x] = *(const int *)(bytes + 1 + 4 * threadIdx.x);
}

int main() {
    char *bytes;
    int *out;
    CHECK(cudaMalloc(&bytes, 256));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    CHECK(cudaMemset(bytes, 1, 256));
    unaligned<<<1, 32>>>(bytes, out);
    finish("unaligned");
    CHECK(cudaFree(bytes));
    CHECK(cudaFree(out));
    return 0;
}
