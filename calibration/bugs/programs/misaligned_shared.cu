// misaligned shared access: an int2 load from a shared address that is 4 mod 8 (memcheck's kind)
#include "common.cuh"

__global__ void pairs(int *out) {
    __shared__ int s[80];
    s[threadIdx.x] = threadIdx.x;
    s[threadIdx.x + 32] = threadIdx.x;
    __syncthreads();
    int2 v = *(const int2 *)(s + 1 + 2 * (threadIdx.x % 16));
    out[threadIdx.x] = v.x + v.y;
}

int main() {
    int *out;
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    pairs<<<1, 32>>>(out);
    finish("pairs");
    CHECK(cudaFree(out));
    return 0;
}
