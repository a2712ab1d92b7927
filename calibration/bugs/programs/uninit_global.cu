// Planted bug: a kernel reads device memory that nothing wrote (initcheck's kind).
#include "common.cuh"

__global__ void copy(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x] + 1; }

int main() {
    int *in, *out;
    CHECK(cudaMalloc(&in, 32 * sizeof(int)));  // never written
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    copy<<<1, 32>>>(in, out);
    finish("copy");
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
