// Whole program: the seed's simpleDivergence (even/odd threads vs even/odd warps), a reduction
// with interleaved pairs, and an adjacent difference with a shared-memory halo.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e = (call);                                                  \
        if (e != cudaSuccess) {                                                  \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

__global__ void mathKernel1(float *c) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if (tid % 2 == 0) a = 100.0f; else b = 200.0f;
    c[tid] = a + b;
}

__global__ void mathKernel2(float *c) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if ((tid / warpSize) % 2 == 0) a = 100.0f; else b = 200.0f;
    c[tid] = a + b;
}

__global__ void mathKernel3(float *c, const int *sel) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (sel[tid] & 1) {
        v = 1.0f;
        for (int i = 0; i < (tid & 7); i++) v = v * 1.5f + 1.0f;
    } else {
        v = -1.0f;
    }
    c[tid] = v;
}

__global__ void reduceInterleaved(const int *in, int *out, unsigned n) {
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void reduceNeighbored(const int *in, int *out, unsigned n) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

#define RADIUS 1
__global__ void adjDiff(const float *in, float *out, int n) {
    __shared__ float s[256 + RADIUS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + RADIUS;
    if (i < n) s[t] = in[i];
    if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = s[t] - s[t - 1];
}

int main() {
    const int n = 64 * 256;
    const int blocks = n / 256;
    float *dc, *hc = (float *)malloc(n * sizeof(float));
    int *dsel, *hsel = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMalloc(&dsel, n * sizeof(int)));
    int ok = 1;
    mathKernel1<<<blocks, 256>>>(dc);
    CHECK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ok &= hc[i] == (i % 2 == 0 ? 100.0f : 200.0f);
    mathKernel2<<<blocks, 256>>>(dc);
    CHECK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ok &= hc[i] == ((i / 32) % 2 == 0 ? 100.0f : 200.0f);
    for (int i = 0; i < n; i++) hsel[i] = (i * 7 + i / 5) % 3;
    CHECK(cudaMemcpy(dsel, hsel, n * sizeof(int), cudaMemcpyHostToDevice));
    mathKernel3<<<blocks, 256>>>(dc, dsel);
    CHECK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float v = -1.0f;
        if (hsel[i] & 1) { v = 1.0f; for (int k = 0; k < (i & 7); k++) v = v * 1.5f + 1.0f; }
        ok &= hc[i] == v;
    }
    printf("divergence kernels: %s\n", ok ? "Arrays match" : "Arrays do not match");

    int *dsum, hsum[64];
    CHECK(cudaMalloc(&dsum, blocks * sizeof(int)));
    long long want = 0;
    for (int i = 0; i < n; i++) want += hsel[i];
    reduceInterleaved<<<blocks, 256, 256 * sizeof(int)>>>(dsel, dsum, n);
    CHECK(cudaMemcpy(hsum, dsum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int b = 0; b < blocks; b++) got += hsum[b];
    ok &= got == want;
    reduceNeighbored<<<blocks, 256>>>(dsel, dsum, n);
    CHECK(cudaMemcpy(hsum, dsum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long got2 = 0;
    for (int b = 0; b < blocks; b++) got2 += hsum[b];
    ok &= got2 == want;
    printf("reductions: %lld %lld (want %lld)\n", got, got2, want);

    float *din, *hin = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) hin[i] = (float)((i * 37) % 101);
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    adjDiff<<<blocks, 256>>>(din, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ok &= hc[i] == hin[i] - (i > 0 ? hin[i - 1] : 0.0f);
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dsel));
    CHECK(cudaFree(dsum));
    CHECK(cudaFree(din));
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
