// leak at cudaDeviceReset: an allocation still live when the program resets the device
#include "common.cuh"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 96 * sizeof(int)));
    fill<<<1, 96>>>(a);
    finish("fill");
    CHECK(cudaDeviceReset());  // a is still allocated
    return 0;
}
