// Builds one labelled kernel as a program: launch.h includes the kernel and defines LAUNCH, its launch with
// buffers from buf(BYTES) (zeroed device memory).
#include <cstdio>
#include <cuda_runtime.h>
#include "launch.h"
static void *buf(size_t n) {
    void *p = nullptr;
    cudaMalloc(&p, n);
    cudaMemset(p, 0, n);
    return p;
}
int main() {
    LAUNCH;
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", KNAME, cudaGetErrorString(e));
    return 0;
}
