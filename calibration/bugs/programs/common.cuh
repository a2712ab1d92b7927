// Shared helpers of the planted-bug programs: checked CUDA calls and a small launch wrapper.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                   \
        }                                                                                         \
    } while (0)

// Reports the launch's error (a faulting kernel) and synchronises.
static void finish(const char *what) {
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    printf("%s: %s\n", what, e == cudaSuccess ? "no error" : cudaGetErrorString(e));
}
