// Device assert (cuda-samples' simpleAssert): a passing assert costs nothing (one uniform branch
// around the call per warp that reaches it); a failing one prints a GPU's line for each failing
// thread, traps the grid (the stores before it stay: the host sees them in mapped memory) and
// leaves the sticky cudaErrorAssert for every later call.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void checked(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(in[i] >= 0);
        out[i] = in[i] * 2;
    }
}

__global__ void failing(int *out, int bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i + 1;
    assert(threadIdx.x != bad);
}

int main() {
    const int n = 1000;
    static int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, 1024 * sizeof(int));
    cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
    checked<<<4, 256>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("passing: %s, out[999] %d\n", cudaGetErrorName(e), h[999]);
    checked<<<2, 128>>>(in, out, 200);
    e = cudaDeviceSynchronize();
    printf("passing again: %s\n", cudaGetErrorName(e));
    fflush(stdout);

    int *mapped;
    cudaHostAlloc(&mapped, 128 * sizeof(int), cudaHostAllocMapped);
    for (int i = 0; i < 128; i++) mapped[i] = 0;
    int *dmapped;
    cudaHostGetDevicePointer(&dmapped, mapped, 0);
    failing<<<2, 64>>>(dmapped, 37);
    cudaError_t sync = cudaDeviceSynchronize();
    printf("failing: sync %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
    long sum = 0;
    for (int i = 0; i < 128; i++) sum += mapped[i];
    printf("stores before the assert: %ld\n", sum);
    cudaError_t last = cudaGetLastError();
    cudaError_t copy = cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t alloc = cudaMalloc(&in, 16);
    printf("after it: last %s, memcpy %s, malloc %s\n", cudaGetErrorName(last), cudaGetErrorName(copy),
           cudaGetErrorName(alloc));
    return sync == cudaErrorAssert ? 3 : 0;
}
