// expect: none
// launch: --kernel saxpy --grid 2 --block 64 --arg i32:128 --arg f32:2.0 --arg buf:512 --arg buf:512:zero
// A whole program in one file (host headers, main, cudaMalloc, a launch, a check): `check` reads
// the kernel from it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
    const int n = 128;
    std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<2, 64>>>(n, 2.0f, x, y);
    cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
        if (hy[i] != 4.0f) {
            printf("FAIL at %d\n", i);
            return EXIT_FAILURE;
        }
    printf("PASS\n");
    cudaFree(x);
    cudaFree(y);
    return 0;
}
