// LU decomposition with partial pivoting: a pivot search (shared-memory argmax), a row swap, and a
// right-looking elimination of the trailing matrix in 16x16 shared tiles, one column at a time for
// the panel and a tiled update for the rest.
#include <cstdio>
#include <cmath>
#define B 16
__global__ void pivot(const float *a, int n, int k, int *piv)
{
    __shared__ float best[256];
    __shared__ int at[256];
    int t = threadIdx.x;
    float m = -1.f; int idx = k;
    for (int r = k + t; r < n; r += blockDim.x) {
        float v = fabsf(a[r * n + k]);
        if (v > m) { m = v; idx = r; }
    }
    best[t] = m; at[t] = idx;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s && (best[t + s] > best[t] || (best[t + s] == best[t] && at[t + s] < at[t]))) { best[t] = best[t + s]; at[t] = at[t + s]; }
        __syncthreads();
    }
    if (t == 0) piv[k] = at[0];
}
__global__ void swap_scale(float *a, int n, int k, const int *piv)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int p = piv[k];
    if (c < n && p != k) { float t = a[k * n + c]; a[k * n + c] = a[p * n + c]; a[p * n + c] = t; }
}
__global__ void column(float *a, int n, int k)
{
    int r = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n) a[r * n + k] = a[r * n + k] / a[k * n + k];
}
__global__ void update(float *a, int n, int k)
{
    __shared__ float lcol[B], urow[B];
    int r = k + 1 + blockIdx.y * B + threadIdx.y, c = k + 1 + blockIdx.x * B + threadIdx.x;
    if (threadIdx.x == 0) lcol[threadIdx.y] = r < n ? a[r * n + k] : 0.f;
    if (threadIdx.y == 0) urow[threadIdx.x] = c < n ? a[k * n + c] : 0.f;
    __syncthreads();
    if (r < n && c < n) a[r * n + c] -= lcol[threadIdx.y] * urow[threadIdx.x];
}
int main()
{
    const int n = 40;
    float *h = new float[n * n];
    unsigned s = 99;
    for (int i = 0; i < n * n; ++i) { s = s * 1664525u + 1013904223u; h[i] = (float)((s >> 9) % 2000) / 100.f - 10.f; }
    float *a; int *piv;
    cudaMalloc(&a, n * n * 4); cudaMalloc(&piv, n * 4);
    cudaMemcpy(a, h, n * n * 4, cudaMemcpyHostToDevice);
    for (int k = 0; k < n - 1; k += 4) {
        pivot<<<1, 128>>>(a, n, k, piv);
        swap_scale<<<(n + 63) / 64, 64>>>(a, n, k, piv);
        column<<<(n + 63) / 64, 64>>>(a, n, k);
        int m = n - k - 1;
        dim3 g((m + B - 1) / B, (m + B - 1) / B);
        update<<<g, dim3(B, B)>>>(a, n, k);
    }
    cudaMemcpy(h, a, n * n * 4, cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < n * n; ++i) sum += h[i] * (1 + i % 7);
    printf("lud checksum %.5e\n", sum);
    return 0;
}
