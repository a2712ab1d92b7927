// A kernel that launches a kernel (dynamic parallelism, built with -rdc=true): not supported by
// `warpscope run`, which must say so and return the error to the program, which reports it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int *hits) { atomicAdd(hits, 1); }

__global__ void parent(int *hits) {
    if (threadIdx.x == 0) child<<<2, 32>>>(hits);
}

int main() {
    int *hits;
    cudaMalloc(&hits, sizeof(int));
    cudaMemset(hits, 0, sizeof(int));
    parent<<<1, 32>>>(hits);
    cudaError_t e = cudaGetLastError();
    printf("parent launch: %s\n", cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    int h = 0;
    cudaMemcpy(&h, hits, sizeof(int), cudaMemcpyDeviceToHost);
    printf("synchronize: %s, hits %d\n", cudaGetErrorName(e), h);
    return 0;
}
