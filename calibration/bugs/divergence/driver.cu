// Host driver: launches seed 002's kernels and the extra shapes, 64 blocks x 64 threads each, for ncu.
#include <cstdio>
#include <cuda_runtime.h>
#include "simpleDivergence.cu"
#include "shapes.cu"

int main() {
    const int blocks = 64, threads = 64;
    float* c = nullptr;
    cudaMalloc(&c, blocks * threads * sizeof(float));
    mathKernel1<<<blocks, threads>>>(c);
    mathKernel2<<<blocks, threads>>>(c);
    straightKernel<<<blocks, threads>>>(c);
    parityAndKernel<<<blocks, threads>>>(c);
    ifOnlyKernel<<<blocks, threads>>>(c);
    loopKernel<<<blocks, threads>>>(c);
    cudaError_t err = cudaDeviceSynchronize();
    printf("driver: %s\n", cudaGetErrorString(err));
    cudaFree(c);
    return err == cudaSuccess ? 0 : 1;
}
