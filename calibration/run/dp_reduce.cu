// Dynamic parallelism: a recursive reduction of 2^20 ints without device-side synchronization
// (CUDA 12+). Each block of the top grid owns a segment; its threads fold the segment's upper half
// onto its lower half, then thread 0 launches the same kernel, one block, on the lower half. The
// last level (two elements) writes the segment's sum; the host adds the segments' sums.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce_rec(int *seg_base, int n, int *out) {
    int *seg = seg_base + (size_t)blockIdx.x * n;
    if (n == 2) {
        if (threadIdx.x == 0) out[blockIdx.x] = seg[0] + seg[1];
        return;
    }
    int half = n / 2;
    for (int i = threadIdx.x; i < half; i += blockDim.x) seg[i] += seg[i + half];
    __syncthreads();
    if (threadIdx.x == 0) {
        int threads = half / 2 < 1024 ? (half / 2 > 0 ? half / 2 : 1) : 1024;
        reduce_rec<<<1, threads>>>(seg, half, out + blockIdx.x);
    }
}

int main() {
    const int N = 1 << 20, BLOCKS = 16, SEG = N / BLOCKS;
    int *h = new int[N];
    long long want = 0;
    for (int i = 0; i < N; i++) { h[i] = (i * 7 + 3) % 101 - 50; want += h[i]; }
    int *d, *out;
    cudaMalloc(&d, N * sizeof(int));
    cudaMalloc(&out, BLOCKS * sizeof(int));
    cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice);
    reduce_rec<<<BLOCKS, 1024>>>(d, SEG, out);
    cudaError_t e = cudaDeviceSynchronize();
    int parts[BLOCKS];
    cudaMemcpy(parts, out, sizeof parts, cudaMemcpyDeviceToHost);
    long long got = 0;
    for (int b = 0; b < BLOCKS; b++) got += parts[b];
    printf("synchronize %s\n", cudaGetErrorName(e));
    printf("segment 0 sum %d, segment 15 sum %d\n", parts[0], parts[BLOCKS - 1]);
    printf("sum %lld, expected %lld: %s\n", got, want, got == want ? "ok" : "WRONG");
    delete[] h;
    return got == want ? 0 : 1;
}
