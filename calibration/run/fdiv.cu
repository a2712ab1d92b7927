// Branches the PTX does not have, and branches on computed values: ptxas's float-division slow-path
// test (`FCHK` + `@!P0 BRA`), double division and sqrt slow paths, and data-dependent control flow
// (a binary search, a loop whose trip count comes from a float result, a branch on an atomic's
// result and on a value read from shared memory). Each launch's counters are measured with ncu.
#include <cstdio>
#include <cmath>

__global__ void fdiv(const float *a, const float *b, float *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = a[i] / b[i];
}

__global__ void ddiv(const double *a, const double *b, double *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = a[i] / b[i] + sqrt(fabs(a[i]));
}

__global__ void search(const float *keys, int nk, const float *x, int *pos, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    int lo = 0, hi = nk;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (keys[mid] < v) lo = mid + 1; else hi = mid;
    }
    pos[i] = lo;
}

__global__ void newton(const float *x, float *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], g = v > 1.f ? v : 1.f;
    int it = 0;
    while (fabsf(g * g - v) > 1e-4f * v && it < 100) { g = 0.5f * (g + v / g); ++it; }
    r[i] = g + it;
}

__global__ void shared_branch(const int *x, int *out, unsigned *counter, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0;
    __syncthreads();
    int v = s[(t * 7) & 255];
    if (v % 3 == 0) v = v * 5 + 1; else if (v % 3 == 1) v -= 7;
    unsigned ticket = atomicAdd(counter, 1);
    if (ticket % 5 == 0) v += 100;
    if (i < n) out[i] = v;
}

int main()
{
    const int n = 4096, nk = 1000;
    float *ha = new float[n], *hb = new float[n], *hk = new float[nk];
    double *da_h = new double[n], *db_h = new double[n];
    int *hx = new int[n];
    unsigned s = 12345;
    auto rnd = [&] { s = s * 1664525u + 1013904223u; return s; };
    for (int i = 0; i < n; ++i) {
        unsigned r = rnd();
        // ordinary quotients, and every few lanes one that takes the slow path (denormal or huge)
        ha[i] = (float)(r % 1000) - 500.f;
        hb[i] = (float)((r >> 10) % 977) + 0.5f;
        if (i % 37 == 0) hb[i] = 1e-39f;
        if (i % 53 == 0) ha[i] = 3e38f, hb[i] = 1e-3f;
        if (i % 101 == 0) hb[i] = 0.f;
        da_h[i] = ha[i] * 1.25;
        db_h[i] = i % 41 == 0 ? 1e-310 : hb[i];
        hx[i] = (int)(rnd() % 1000);
    }
    for (int k = 0; k < nk; ++k) hk[k] = 0.5f * k - 100.f;
    float *a, *b, *q, *keys, *r;
    double *da, *db, *dq;
    int *pos, *x, *out;
    unsigned *counter;
    cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&q, n * 4); cudaMalloc(&keys, nk * 4);
    cudaMalloc(&r, n * 4); cudaMalloc(&da, n * 8); cudaMalloc(&db, n * 8); cudaMalloc(&dq, n * 8);
    cudaMalloc(&pos, n * 4); cudaMalloc(&x, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&counter, 4);
    cudaMemcpy(a, ha, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(keys, hk, nk * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(da, da_h, n * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(db, db_h, n * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(x, hx, n * 4, cudaMemcpyHostToDevice);
    cudaMemset(counter, 0, 4);
    fdiv<<<n / 256, 256>>>(a, b, q, n);
    ddiv<<<n / 256, 256>>>(da, db, dq, n);
    search<<<n / 256, 256>>>(keys, nk, a, pos, n);
    newton<<<n / 256, 256>>>(a, r, n);
    shared_branch<<<n / 256, 256>>>(x, out, counter, n);
    float *hq = new float[n], *hr = new float[n];
    double *hdq = new double[n];
    int *hp = new int[n], *ho = new int[n];
    cudaMemcpy(hq, q, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hdq, dq, n * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(hp, pos, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, r, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(ho, out, n * 4, cudaMemcpyDeviceToHost);
    unsigned long long h = 1469598103934665603ull;
    auto mix = [&](const void *p, size_t len) {
        for (size_t k = 0; k < len; ++k) { h ^= ((const unsigned char *)p)[k]; h *= 1099511628211ull; }
    };
    mix(hq, n * 4); printf("fdiv: %016llx\n", h);
    mix(hdq, n * 8); printf("ddiv: %016llx\n", h);
    mix(hp, n * 4); printf("search: %016llx\n", h);
    mix(hr, n * 4); printf("newton: %016llx\n", h);
    long long sum = 0;
    for (int i = 0; i < n; ++i) sum += ho[i];
    printf("shared_branch: sum %lld\n", sum);
    return 0;
}
