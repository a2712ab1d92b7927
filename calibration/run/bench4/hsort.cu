// Bucket sort then merge (the hybrid-sort shape): a bucket histogram with shared-memory atomics, the
// buckets' offsets by a block scan (each bucket padded to a multiple of 8 with the largest float),
// a scatter by global atomics, a per-bucket sort (float4 loads into shared memory, a bitonic sort of
// each half of the bucket), and a merge of the two halves (each element's rank in the other half
// by binary search). The host compares the result with its own sort.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#define NB 64
#define HALF 512
#define NT 256
#define BIG __int_as_float(0x7f7f7f7f)

__global__ void hist(const float *v, int n, int *cnt)
{
    __shared__ int h[NB];
    int tid = threadIdx.x;
    if (tid < NB) h[tid] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[min((int)(v[i] * NB), NB - 1)], 1);
    __syncthreads();
    if (tid < NB && h[tid]) atomicAdd(&cnt[tid], h[tid]);
}

__global__ void offsets(const int *cnt, int *poff, int *roff, int *padded)
{
    __shared__ int a[NB], r[NB];
    int tid = threadIdx.x;
    int c = cnt[tid], p = (c + 7) & ~7;
    a[tid] = p; r[tid] = c;
    __syncthreads();
    for (int o = 1; o < NB; o <<= 1) {
        int x = tid >= o ? a[tid - o] : 0, y = tid >= o ? r[tid - o] : 0;
        __syncthreads();
        a[tid] += x; r[tid] += y;
        __syncthreads();
    }
    poff[tid] = a[tid] - p;
    roff[tid] = r[tid] - c;
    padded[tid] = p;
    if (tid == NB - 1) poff[NB] = a[tid];
}

__global__ void scatter(const float *v, int n, const int *poff, int *fill, float *buf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = v[i];
    int b = min((int)(x * NB), NB - 1);
    buf[poff[b] + atomicAdd(&fill[b], 1)] = x;
}

__global__ void bsort(float *buf, const int *poff, const int *padded)
{
    __shared__ float s[2 * HALF];
    int b = blockIdx.x, half = padded[b] / 2;
    float4 *src = reinterpret_cast<float4 *>(buf + poff[b]);
    for (int k = threadIdx.x; k < 2 * HALF / 4; k += blockDim.x) {
        int h = k / (HALF / 4), j = k % (HALF / 4);
        float4 f = j * 4 < half ? src[h * half / 4 + j] : make_float4(BIG, BIG, BIG, BIG);
        reinterpret_cast<float4 *>(s)[k] = f;
    }
    __syncthreads();
    for (int k = 2; k <= HALF; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < 2 * HALF; i += blockDim.x) {
                int l = i ^ j;
                if (l > i) {
                    bool up = ((i & (HALF - 1)) & k) == 0;
                    float x = s[i], y = s[l];
                    if ((x > y) == up) { s[i] = y; s[l] = x; }
                }
            }
            __syncthreads();
        }
    for (int k = threadIdx.x; k < 2 * HALF / 4; k += blockDim.x) {
        int h = k / (HALF / 4), j = k % (HALF / 4);
        if (j * 4 < half) src[h * half / 4 + j] = reinterpret_cast<float4 *>(s)[k];
    }
}

__global__ void merge(const float *buf, const int *poff, const int *padded, const int *roff, const int *cnt, float *out)
{
    int b = blockIdx.x, half = padded[b] / 2, c = cnt[b];
    const float *A = buf + poff[b], *B = A + half;
    for (int i = threadIdx.x; i < 2 * half; i += blockDim.x) {
        bool inA = i < half;
        int j = inA ? i : i - half;
        float x = inA ? A[j] : B[j];
        const float *O = inA ? B : A;
        int lo = 0, hi = half;
        while (lo < hi) {
            int m = (lo + hi) >> 1;
            float y = O[m];
            if (inA ? y < x : y <= x) lo = m + 1; else hi = m;
        }
        int r = j + lo;
        if (r < c) out[roff[b] + r] = x;
    }
}

int main()
{
    const int n = 16000;
    float *v = new float[n], *got = new float[n];
    unsigned s = 11;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        float u = (s >> 8) / 16777216.f;
        v[i] = i % 20 == 0 ? 0.5f + u * 0.03f : u * (0.5f + 0.5f * u);   // a cluster in 2 buckets, a skew towards 0
        if (i % 97 == 0) v[i] = v[i / 2];                 // some equal values
    }
    float *dv, *dbuf, *dout; int *dcnt, *dpoff, *droff, *dpad, *dfill;
    cudaMalloc(&dv, n * 4); cudaMalloc(&dbuf, (n + 8 * NB) * 4); cudaMalloc(&dout, n * 4);
    cudaMalloc(&dcnt, NB * 4); cudaMalloc(&dpoff, (NB + 1) * 4); cudaMalloc(&droff, NB * 4);
    cudaMalloc(&dpad, NB * 4); cudaMalloc(&dfill, NB * 4);
    cudaMemcpy(dv, v, n * 4, cudaMemcpyHostToDevice);
    cudaMemset(dcnt, 0, NB * 4); cudaMemset(dfill, 0, NB * 4);
    cudaMemset(dbuf, 0x7f, (n + 8 * NB) * 4);
    hist<<<24, NT>>>(dv, n, dcnt);
    offsets<<<1, NB>>>(dcnt, dpoff, droff, dpad);
    scatter<<<(n + NT - 1) / NT, NT>>>(dv, n, dpoff, dfill, dbuf);
    int cnt[NB];
    cudaMemcpy(cnt, dcnt, NB * 4, cudaMemcpyDeviceToHost);
    int big = 0;
    for (int b = 0; b < NB; ++b) big = std::max(big, cnt[b]);
    if (big > 2 * HALF) { printf("bucket of %d\nFAIL\n", big); return 1; }
    bsort<<<NB, NT>>>(dbuf, dpoff, dpad);
    merge<<<NB, NT>>>(dbuf, dpoff, dpad, droff, dcnt, dout);
    cudaMemcpy(got, dout, n * 4, cudaMemcpyDeviceToHost);
    std::sort(v, v + n);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != v[i];
    printf("hsort %d values, %d buckets: bucket 0 %d, bucket 32 %d, largest %d\n", n, NB, cnt[0], cnt[32], big);
    printf("  got[0] %.6f got[%d] %.6f got[%d] %.6f; %d misplaced\n", got[0], n / 2, got[n / 2], n - 1, got[n - 1], bad);
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
