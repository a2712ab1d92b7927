// Dynamic parallelism: a recursive "nested hello world". Every thread prints its recursion depth,
// thread and block; thread 0 of each block launches the same kernel with half the threads and one
// more level, until one thread is left. Two blocks at the top: each launches its own chain.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void nested_hello(int size, int depth) {
    printf("Recursion=%d: Hello World from thread %d block %d\n", depth, threadIdx.x, blockIdx.x);
    if (size == 1) return;
    int half = size / 2;
    if (threadIdx.x == 0 && half > 0) {
        nested_hello<<<1, half>>>(half, depth + 1);
        printf("-------> nested execution depth: %d\n", depth);
    }
}

int main() {
    nested_hello<<<2, 16>>>(16, 0);
    cudaError_t e = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    printf("launch %s, synchronize %s\n", cudaGetErrorName(e), cudaGetErrorName(s));
    return s == cudaSuccess ? 0 : 1;
}
