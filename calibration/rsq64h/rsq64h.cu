// MUFU.RSQ64H (what `rsqrt.approx.ftz.f64` is: the high word of the seed, the low word zero) over
// every input high word of [1, 4), both binades because the square root's table depends on the
// exponent's parity: hi = 0x3ff00000 | k and 0x40000000 | k, k < 2^20. The table is the high
// words of the results, written as differences of consecutive results (u32, wrapping; binade
// [1, 2) first, then [2, 4)), compressed by the caller. A second list checks scaling, signs, the
// low word's irrelevance and the special values: every exponent (both signs) with four
// significands, 4096 inputs of a fixed pseudo-random sequence (low words not zero) and special
// values, printed as `input result full` in hex (`full`: `rsqrt.approx.f64`, the seed refined). Run: ./rsq64h OUTDIR
#include <cstdio>
#include <cstdlib>
#include <cstdint>

__device__ uint64_t rsq64h(uint64_t x)
{
    double r;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(__longlong_as_double((long long)x)));
    return (uint64_t)__double_as_longlong(r);
}

__global__ void table(unsigned *out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    uint64_t x = (uint64_t)(0x3ff00000u + (unsigned)k) << 32;
    uint64_t r = rsq64h(x);
    out[k] = (unsigned)(r >> 32);
    if ((unsigned)r != 0) out[k] = 0xdeadbeefu; // a low word not zero: flagged
}

__device__ uint64_t rsqrt_full(uint64_t x)
{
    double r;
    asm("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(__longlong_as_double((long long)x)));
    return (uint64_t)__double_as_longlong(r);
}

__global__ void list(const uint64_t *in, uint64_t *out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        out[2 * k] = rsq64h(in[k]);
        out[2 * k + 1] = rsqrt_full(in[k]);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int n = 2 << 20;
    unsigned *d, *h = (unsigned *)malloc(4ull * n);
    cudaMalloc(&d, 4ull * n);
    table<<<n / 256, 256>>>(d, n);
    if (cudaMemcpy(h, d, 4ull * n, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    unsigned prev = 0, flagged = 0;
    for (int k = 0; k < n; ++k) {
        unsigned v = h[k];
        flagged += v == 0xdeadbeefu;
        h[k] = v - prev;
        prev = v;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/rsq64h.delta", dir);
    FILE *o = fopen(path, "wb");
    fwrite(h, 4, n, o);
    fclose(o);
    printf("rsq64h: %d results, %u with a low word not zero\n", n, flagged);
    static const uint64_t special[] = {
        0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
        0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ff4000000000000ull, 0x7fffffffffffffffull,
        0x0000000000000001ull, 0x000fffffffffffffull, 0x0000000100000000ull, 0x0008000000000000ull,
        0x800fffffffffffffull, 0x8000000100000000ull, 0x0010000000000000ull, 0x8010000000000000ull,
        0x0010000100000000ull, 0x001fffff00000000ull, 0x0020000000000000ull, 0x0030000000000000ull,
        0x7fefffffffffffffull, 0x7fd0000000000000ull, 0x7fe0000000000000ull, 0x3ff0000000000000ull,
        0x3ff00000ffffffffull, 0x4000000000000000ull, 0x400fffffffffffffull, 0xbff0000000000000ull,
        0xc000000000000000ull, 0xffefffffffffffffull, 0x3fefffff00000000ull, 0x3fe0000000000000ull};
    const int ns = sizeof special / sizeof special[0];
    const int ne = 2048 * 2 * 4;
    const int m = ne + 4096 + ns;
    uint64_t *hin = (uint64_t *)malloc(8ull * m), *hout = (uint64_t *)malloc(16ull * m), *din, *dout;
    int i = 0;
    static const unsigned sig[4] = {0x00000, 0x00001, 0x80000, 0xfffff};
    for (unsigned s = 0; s < 2; ++s)
        for (unsigned e = 0; e < 2048; ++e)
            for (int j = 0; j < 4; ++j)
                hin[i++] = (uint64_t)((s << 31) | (e << 20) | sig[j]) << 32 | (j == 2 ? 0x12345678u : 0u);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < 4096; ++j) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        hin[i++] = s;
    }
    for (int j = 0; j < ns; ++j) hin[i++] = special[j];
    cudaMalloc(&din, 8ull * m);
    cudaMalloc(&dout, 16ull * m);
    cudaMemcpy(din, hin, 8ull * m, cudaMemcpyHostToDevice);
    list<<<(m + 255) / 256, 256>>>(din, dout, m);
    if (cudaMemcpy(hout, dout, 16ull * m, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    snprintf(path, sizeof path, "%s/rsq64h.list", dir);
    o = fopen(path, "w");
    for (int j = 0; j < m; ++j) fprintf(o, "%016llx %016llx %016llx\n", (unsigned long long)hin[j], (unsigned long long)hout[2 * j],
                (unsigned long long)hout[2 * j + 1]);
    fclose(o);
    printf("rsq64h list: %d inputs\n", m);
    return 0;
}
