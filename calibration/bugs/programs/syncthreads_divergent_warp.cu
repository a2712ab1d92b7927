// divergent __syncthreads within warps: lanes 0..15 of every warp wait at one barrier, lanes 16..31
// at another (synccheck's kind)
#include "common.cuh"

__global__ void two_barriers(int *a) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x % 32 < 16) {
        __syncthreads();
        a[threadIdx.x] = s[63 - threadIdx.x];
    } else {
        __syncthreads();
        a[threadIdx.x] = s[threadIdx.x ^ 1];
    }
}

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    two_barriers<<<1, 64>>>(a);
    finish("two_barriers");
    CHECK(cudaFree(a));
    return 0;
}
