// Dynamic parallelism: a reduction of 2^20 ints by tail launches. Each level is a grid of several
// blocks that folds the upper half of the array onto the lower half; thread 0 of block 0 queues the
// next level with cudaStreamTailLaunch, which starts only after the whole current grid is done, so
// every block's writes are visible to it. A second kernel, launched fire-and-forget, counts levels.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count_level(int *levels) { atomicAdd(levels, 1); }

__global__ void fold(int *a, int n, int *levels) {
    int half = n / 2;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < half) a[i] += a[i + half];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        count_level<<<1, 1, 0, cudaStreamFireAndForget>>>(levels);
        if (half > 1) {
            int threads = half / 2 < 256 ? half / 2 : 256;
            if (threads < 1) threads = 1;
            int blocks = (half / 2 + threads - 1) / threads;
            if (blocks < 1) blocks = 1;
            fold<<<blocks, threads, 0, cudaStreamTailLaunch>>>(a, half, levels);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess) printf("tail launch at n=%d: error %d\n", half, (int)e);
        }
    }
}

int main() {
    const int N = 1 << 20;
    int *h = new int[N];
    long long want = 0;
    for (int i = 0; i < N; i++) { h[i] = (i % 13) - 6 + (i % 5); want += h[i]; }
    int *d, *levels;
    cudaMalloc(&d, N * sizeof(int));
    cudaMalloc(&levels, sizeof(int));
    cudaMemset(levels, 0, sizeof(int));
    cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice);
    fold<<<N / 2 / 256, 256>>>(d, N, levels);
    cudaError_t e = cudaDeviceSynchronize();
    int got = 0, lv = 0;
    cudaMemcpy(&got, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&lv, levels, sizeof(int), cudaMemcpyDeviceToHost);
    printf("synchronize %s, levels %d\n", cudaGetErrorName(e), lv);
    printf("sum %d, expected %lld: %s\n", got, want, got == want ? "ok" : "WRONG");
    delete[] h;
    return got == want && lv == 20 ? 0 : 1;
}
