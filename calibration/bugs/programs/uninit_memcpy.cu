// uninitialised device memory copied to the host: a kernel writes half of a buffer, the host copies all
#include "common.cuh"

__global__ void half(int *a) {
    if (threadIdx.x < 16) a[threadIdx.x] = threadIdx.x;
}

int main() {
    int h[32];
    int *a;
    CHECK(cudaMalloc(&a, sizeof h));
    half<<<1, 32>>>(a);
    finish("half");
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));  // a[16..31] never written
    printf("h[0] = %d\n", h[0]);
    CHECK(cudaFree(a));
    return 0;
}
