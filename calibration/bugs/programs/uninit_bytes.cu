// uninitialised bytes: a memset covers 6 bytes, a kernel reads the two ints they start (initcheck's kind)
#include "common.cuh"

__global__ void read2(const int *a, int *out) { out[threadIdx.x] = a[threadIdx.x]; }

int main() {
    int *a, *out;
    CHECK(cudaMalloc(&a, 2 * sizeof(int)));
    CHECK(cudaMalloc(&out, 2 * sizeof(int)));
    CHECK(cudaMemset(a, 0, 6));  // bytes 6 and 7 of a[1] never written
    read2<<<1, 2>>>(a, out);
    finish("read2");
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    return 0;
}
