// Nearest neighbours (the nn shape): one thread per record computes the Euclidean distance from a
// query point by sqrtf; the host picks the k nearest. The record count is not a multiple of the
// block, so the last block has idle threads.
#include <cstdio>
#include <cmath>
__global__ void dist(const float2 *loc, float *d, int n, float lat, float lng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 p = loc[i];
        d[i] = sqrtf((lat - p.x) * (lat - p.x) + (lng - p.y) * (lng - p.y));
    }
}
int main()
{
    const int n = 42763, k = 5;
    float2 *loc = new float2[n];
    float *d = new float[n];
    unsigned s = 17;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u; loc[i].x = 7.f + ((s >> 8) % 100000) / 1000.f;
        s = s * 1664525u + 1013904223u; loc[i].y = 15.f + ((s >> 8) % 100000) / 1000.f;
    }
    loc[100] = make_float2(30.f, 90.f);   // a record at the query point: distance 0
    float2 *dl; float *dd;
    cudaMalloc(&dl, n * 8); cudaMalloc(&dd, n * 4);
    cudaMemcpy(dl, loc, n * 8, cudaMemcpyHostToDevice);
    const float qa[2][2] = {{30.f, 90.f}, {51.5f, 60.25f}};
    int bad = 0;
    printf("nn records %d\n", n);
    for (int q = 0; q < 2; ++q) {
        dist<<<(n + 255) / 256, 256>>>(dl, dd, n, qa[q][0], qa[q][1]);
        cudaMemcpy(d, dd, n * 4, cudaMemcpyDeviceToHost);
        int best[k];
        for (int a = 0; a < k; ++a) {
            int b = -1;
            for (int i = 0; i < n; ++i) {
                bool taken = false;
                for (int c = 0; c < a; ++c) taken |= best[c] == i;
                if (!taken && (b < 0 || d[i] < d[b])) b = i;
            }
            best[a] = b;
        }
        for (int i = 0; i < n; ++i) {
            float dx = qa[q][0] - loc[i].x, dy = qa[q][1] - loc[i].y;
            if (fabsf(d[i] - sqrtf(dx * dx + dy * dy)) > 1e-4f * (1.f + d[i])) ++bad;
        }
        printf("  query %.2f %.2f:", qa[q][0], qa[q][1]);
        for (int a = 0; a < k; ++a) printf(" %d (%.5f)", best[a], d[best[a]]);
        printf("\n");
    }
    printf("  %s (%d distances off)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
