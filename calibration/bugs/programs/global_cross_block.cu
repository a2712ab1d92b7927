// Planted bug: block 1 reads what block 0 writes to a global array, with nothing ordering the
// blocks (a global-memory race; racecheck checks shared memory only).
#include "common.cuh"

__global__ void publish(int *a, int *out) {
    if (blockIdx.x == 0) {
        a[threadIdx.x] = threadIdx.x + 1;
    } else {
        out[threadIdx.x] = a[threadIdx.x];
    }
}

int main() {
    int *a, *out;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK(cudaMemset(a, 0, 64 * sizeof(int)));
    publish<<<2, 64>>>(a, out);
    finish("publish");
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    return 0;
}
