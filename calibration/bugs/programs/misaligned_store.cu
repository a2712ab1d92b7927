// misaligned store: an 8-byte double store at an address that is 4 mod 8 (memcheck's kind)
#include "common.cuh"

__global__ void store_pairs(char *bytes) {
    *(double *)(bytes + 4 + 8 * threadIdx.x) = 1.0;
}

int main() {
    char *bytes;
    CHECK(cudaMalloc(&bytes, 512));
    store_pairs<<<1, 32>>>(bytes);
    finish("store_pairs");
    CHECK(cudaFree(bytes));
    return 0;
}
