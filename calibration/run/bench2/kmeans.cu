// k-means clustering: each point finds its nearest centre (a data-dependent comparison), the sums
// and counts are accumulated with atomics, and the new centres come from float divisions.
#include <cstdio>
#define D 4
#define KC 5
__global__ void assign(const float *pts, const float *cent, int *label, float *sum, int *count, int *moved, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float best = 3.0e38f; int bk = 0;
    for (int k = 0; k < KC; ++k) {
        float d = 0.f;
        for (int j = 0; j < D; ++j) { float t = pts[i * D + j] - cent[k * D + j]; d += t * t; }
        if (d < best) { best = d; bk = k; }
    }
    if (label[i] != bk) { atomicAdd(moved, 1); label[i] = bk; }
    for (int j = 0; j < D; ++j) atomicAdd(&sum[bk * D + j], pts[i * D + j]);
    atomicAdd(&count[bk], 1);
}
__global__ void recenter(float *cent, float *sum, int *count)
{
    int t = threadIdx.x;
    if (t < KC * D) {
        int c = count[t / D];
        if (c > 0) cent[t] = sum[t] / (float)c;
        sum[t] = 0.f;
    }
    __syncthreads();
    if (t < KC) count[t] = 0;
}
int main()
{
    const int n = 2048;
    float *p = new float[n * D];
    unsigned s = 11;
    for (int i = 0; i < n; ++i) {
        int g = i % KC;
        for (int j = 0; j < D; ++j) { s = s * 1664525u + 1013904223u; p[i * D + j] = g * 4.f + (j == g % D) * 3.f + ((s >> 9) % 1000) / 250.f; }
    }
    float c0[KC * D];
    const int pick[KC] = {0, 5, 10, 1, 6};
    for (int k = 0; k < KC * D; ++k) c0[k] = p[pick[k / D] * D + k % D];
    float *dp, *dc, *dsum; int *dl, *dcnt, *dm;
    cudaMalloc(&dp, n * D * 4); cudaMalloc(&dc, KC * D * 4); cudaMalloc(&dsum, KC * D * 4);
    cudaMalloc(&dl, n * 4); cudaMalloc(&dcnt, KC * 4); cudaMalloc(&dm, 4);
    cudaMemcpy(dp, p, n * D * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c0, sizeof c0, cudaMemcpyHostToDevice);
    cudaMemset(dsum, 0, KC * D * 4); cudaMemset(dcnt, 0, KC * 4); cudaMemset(dl, 0xff, n * 4);
    int it = 0, moved;
    do {
        cudaMemset(dm, 0, 4);
        assign<<<(n + 255) / 256, 256>>>(dp, dc, dl, dsum, dcnt, dm, n);
        recenter<<<1, 32>>>(dc, dsum, dcnt);
        cudaMemcpy(&moved, dm, 4, cudaMemcpyDeviceToHost);
        ++it;
    } while (moved > 0 && it < 12);
    float c[KC * D];
    cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
    printf("kmeans iterations %d\n", it);
    for (int k = 0; k < KC; ++k) printf("  %.3f %.3f %.3f %.3f\n", c[k * D], c[k * D + 1], c[k * D + 2], c[k * D + 3]);
    return 0;
}
