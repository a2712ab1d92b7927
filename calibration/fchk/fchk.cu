// Which float divisions take ptxas's slow path: `a / b` (div.rn.f32) compiles to MUFU.RCP, FCHK
// P0, a, b, four FFMAs and `@!P0 BRA` around a call of the slow-path subroutine. One warp per
// operand pair, every lane the same pair: eight dependent divisions timed with clock64. The slow
// path is several times longer, so the cycles tell whether FCHK set P0. Operands: every biased
// exponent 0..255 of a and of b, each with three mantissas (0, 1, 0x7fffff: zero / smallest /
// largest significand), positive (or negative: second argument); the output is one byte per pair: the cycles / 16, clamped.
// Each block asks for 200 KiB of dynamic shared memory, so one block runs on an SM at a time and no
// other warp's slow path lengthens a fast one's cycles.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ __forceinline__ float pass(float a, float dep)
{
    float r;
    asm volatile("mov.b32 %0, %1;" : "=f"(r) : "f"(a), "f"(dep));
    return r;
}

__global__ void timed(const unsigned *bits, unsigned char *out, int n)
{
    int p = blockIdx.x;
    if (p >= n) return;
    float a = __uint_as_float(bits[2 * p]), b = __uint_as_float(bits[2 * p + 1]);
    long long t0, t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) : "f"(a), "f"(b));
    float x = pass(a, __int_as_float((int)t0)), q = 0;
    for (int k = 0; k < 8; ++k) {
        q = x / b;
        x = pass(a, q);
    }
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "f"(q));
    long long c = (t1 - t0) / 16;
    if (threadIdx.x == 0) out[p] = (unsigned char)(c > 255 ? 255 : c);
}

int main(int argc, char **argv)
{
    const int M = 3, E = 256, N = E * M * E * M;
    const unsigned mant[M] = {0, 1, 0x7fffff};
    // `./fchk OUT [a|b|ab]`: negative a, b or both
    const char *neg = argc > 2 ? argv[2] : "";
    const unsigned sign_a = strchr(neg, 'a') ? 0x80000000u : 0, sign_b = strchr(neg, 'b') ? 0x80000000u : 0;
    unsigned *h = (unsigned *)malloc(8ull * N);
    int p = 0;
    for (int ea = 0; ea < E; ++ea)
        for (int ma = 0; ma < M; ++ma)
            for (int eb = 0; eb < E; ++eb)
                for (int mb = 0; mb < M; ++mb, ++p) {
                    h[2 * p] = (unsigned)ea << 23 | mant[ma] | sign_a;
                    h[2 * p + 1] = (unsigned)eb << 23 | mant[mb] | sign_b;
                }
    unsigned *d;
    unsigned char *o, *ho = (unsigned char *)malloc(N);
    cudaMalloc(&d, 8ull * N);
    cudaMalloc(&o, N);
    cudaMemcpy(d, h, 8ull * N, cudaMemcpyHostToDevice);
    const int smem = 200 * 1024;
    cudaFuncSetAttribute(timed, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    for (int rep = 0; rep < 2; ++rep) timed<<<N, 32, smem>>>(d, o, N);  // the second run is kept
    cudaError_t e = cudaMemcpy(ho, o, N, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { printf("fchk: %s\n", cudaGetErrorString(e)); return 1; }
    FILE *f = fopen(argc > 1 ? argv[1] : "fchk.bin", "wb");
    fwrite(ho, 1, N, f);
    fclose(f);
    int hist[256] = {0};
    for (int i = 0; i < N; ++i) hist[ho[i]]++;
    for (int i = 0; i < 256; ++i) if (hist[i]) printf("cycles/16 %d: %d pairs\n", i, hist[i]);
    return 0;
}
