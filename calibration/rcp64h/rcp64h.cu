// MUFU.RCP64H (what `rcp.approx.ftz.f64` is: the high word of the seed, the low word zero) over
// every input high word of the binade [1, 2): hi = 0x3ff00000 | k, k < 2^20. The table is the
// high words of the results, written as differences of consecutive results (u32, wrapping) and
// compressed by the caller (xz). A second list checks scaling, signs and the low word's
// irrelevance: 4096 inputs of every exponent (a fixed pseudo-random sequence, low words non-zero)
// and the special values, printed as `input result` in hex. Run: ./rcp64h OUTDIR
#include <cstdio>
#include <cstdlib>
#include <cstdint>

__device__ uint64_t rcp64h(uint64_t x)
{
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(__longlong_as_double((long long)x)));
    return (uint64_t)__double_as_longlong(r);
}

__global__ void table(unsigned *out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    uint64_t x = (uint64_t)(0x3ff00000u | (unsigned)k) << 32;
    uint64_t r = rcp64h(x);
    out[k] = (unsigned)(r >> 32);
    if ((unsigned)r != 0) out[k] = 0xdeadbeefu; // a low word not zero: flagged
}

__global__ void list(const uint64_t *in, uint64_t *out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) out[k] = rcp64h(in[k]);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int n = 1 << 20;
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
    snprintf(path, sizeof path, "%s/rcp64h.delta", dir);
    FILE *o = fopen(path, "wb");
    fwrite(h, 4, n, o);
    fclose(o);
    printf("rcp64h: %d results, %u with a low word not zero\n", n, flagged);
    const int m = 4096 + 16;
    uint64_t hin[m], *din, *dout;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4096; ++i) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        hin[i] = s;
    }
    const uint64_t special[16] = {0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                                  0x0000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull, 0x8010000000000000ull,
                                  0x7fefffffffffffffull, 0x7fd0000000000000ull, 0x7fe0000000000000ull, 0x3ff0000000000000ull,
                                  0x3ff00000ffffffffull, 0x4000000000000000ull, 0x0020000000000000ull};
    for (int i = 0; i < 16; ++i) hin[4096 + i] = special[i];
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&dout, sizeof hin);
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    list<<<(m + 255) / 256, 256>>>(din, dout, m);
    uint64_t hout[m];
    if (cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    snprintf(path, sizeof path, "%s/rcp64h.list", dir);
    o = fopen(path, "w");
    for (int i = 0; i < m; ++i) fprintf(o, "%016llx %016llx\n", (unsigned long long)hin[i], (unsigned long long)hout[i]);
    fclose(o);
    printf("rcp64h list: %d inputs\n", m);
    return 0;
}
