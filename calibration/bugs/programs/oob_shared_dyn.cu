// out of bounds in shared memory: 128 bytes of dynamic shared memory for 64 ints (memcheck's kind)
#include "common.cuh"

__global__ void stage(const int *in, int *out) {
    extern __shared__ int s[];
    s[threadIdx.x] = in[threadIdx.x];  // threads 32..63 write past the 128 bytes
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
    int *in, *out;
    CHECK(cudaMalloc(&in, 64 * sizeof(int)));
    CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK(cudaMemset(in, 0, 64 * sizeof(int)));
    stage<<<1, 64, 128>>>(in, out);
    finish("stage");
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
