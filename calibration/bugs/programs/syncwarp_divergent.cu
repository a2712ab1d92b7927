// divergent __syncwarp: a full-mask __syncwarp() reached by lanes 0..15 only (synccheck's kind)
#include "common.cuh"

__global__ void half_sync(int *a) {
    int lane = threadIdx.x % 32;
    a[threadIdx.x] = lane;
    if (lane < 16) {
        __syncwarp();  // the mask names lanes 16..31, which never arrive
        a[threadIdx.x] += a[threadIdx.x + 16];
    }
}

int main() {
    int *a;
    CHECK(cudaMalloc(&a, 64 * sizeof(int)));
    half_sync<<<1, 32>>>(a);
    finish("half_sync");
    CHECK(cudaFree(a));
    return 0;
}
