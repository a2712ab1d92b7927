// A whole program around the 512x512 tiled matrix multiply of scripts/bench-speed.sh (16x16
// tiles in shared memory, 1024 blocks of 256 threads): inputs made on the host, copied in, one
// launch, the result copied back and checked against a host product on 64 sampled entries. Timed
// under `warpscope run` and `warpscope run --check` by measure.sh.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define T 16

__global__ void matmul(const float *a, const float *b, float *c, int n) {
    __shared__ float ta[T][T], tb[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)((i * 7) % 13) - 6.0f;
        b[i] = (float)((i * 5) % 11) - 5.0f;
    }
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    matmul<<<dim3(n / T, n / T), dim3(T, T)>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int s = 0; s < 64; s++) {
        int i = (s * 131) % n, j = (s * 71) % n;
        float want = 0.0f;
        for (int k = 0; k < n; k++) want += a[i * n + k] * b[k * n + j];
        if (c[i * n + j] != want) bad++;
    }
    printf("matmul %d: %s\n", n, bad ? "FAIL" : "PASS");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free(a);
    free(b);
    free(c);
    return bad != 0;
}
