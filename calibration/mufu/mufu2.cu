// The GPU's multi-function unit (MUFU), measured through raw PTX (inline asm, one instruction each).
// Modes (./mufu2 MODE OUTDIR):
//   struct   for EX2, LG2, RSQ, SQRT, TANH, SIN, COS and every f32 input x with bit b (b < 23) of
//            its significand set: how many give f(x) != f(x with bit b cleared), per sign, exponent
//            and b (u32 counts, [7][512][23]): which input bits the unit uses. Run on the patched
//            binary (mufu2s) so that SIN/COS are MUFU.SIN/COS of x itself (see build.sh).
//   tables   results over ranges of inputs (bit patterns start..start+n, step): rsq, sqrt, lg2, ex2,
//            tanh, and (patched binary) sin, cos; each as the byte-coded differences of consecutive
//            result words (d in [-127, 127] as one byte, else 0x80 and the 4 bytes of d).
//   half     ex2.approx.f16, tanh.approx.f16, ex2.approx.ftz.bf16, tanh.approx.bf16 on all 65536
//            inputs (u16 results, in this order).
//   rand     13 PTX forms (ex2/lg2/rsqrt/sqrt/sin/cos approx, .ftz and not, tanh.approx.f32) on
//            65536 inputs each from gen() below (u32 results); rand2 the same with other inputs
//            (gen(i, v + 13)).
//   tables2  (second round) ex2 of -k/2^23 for every k < 2^23 (ex2neg.tab), tanh of every fourth
//            input of [1, 8) (tanh2.tab).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>

enum { EX2, LG2, RSQ, SQRT, TANH, SIN, COS, NF };
static const char *fname[NF] = {"ex2", "lg2", "rsq", "sqrt", "tanh", "sin", "cos"};

template <int F> __device__ __forceinline__ unsigned unit(unsigned xb)
{
    float x = __uint_as_float(xb), r;
    if (F == EX2) asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == LG2) asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == RSQ) asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == SQRT) asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == TANH) asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    // ptxas: FMUL.RZ by 1/(2 pi), then MUFU.SIN/COS; in mufu2s the constant is patched to 1.0
    if (F == SIN) asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == COS) asm volatile("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return __float_as_uint(r);
}

// struct: block handles 2^16 consecutive bit patterns (one sign and exponent)
template <int F> __global__ void kstruct(unsigned *cnt)
{
    unsigned base = (unsigned)blockIdx.x << 16;
    if (((base >> 23) & 0xff) == 0xff) return;
    unsigned c[23];
    for (int b = 0; b < 23; ++b) c[b] = 0;
    for (unsigned j = threadIdx.x; j < 65536; j += blockDim.x) {
        unsigned x = base + j, r = unit<F>(x);
        for (int b = 0; b < 23; ++b)
            if (x >> b & 1) c[b] += unit<F>(x & ~(1u << b)) != r;
    }
    unsigned se = base >> 23;
    for (int b = 0; b < 23; ++b) {
        unsigned v = c[b];
        for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
        if ((threadIdx.x & 31) == 0 && v) atomicAdd(&cnt[((unsigned)F * 512 + se) * 23 + b], v);
    }
}

template <int F> __global__ void ktab(unsigned *out, unsigned start, unsigned n, unsigned step)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) out[k] = unit<F>(start + k * step);
}

template <int F> __global__ void kneg(unsigned *out, unsigned n)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) out[k] = unit<F>(__float_as_uint(-(float)k * (1.0f / 8388608.0f)));
}

template <int F> __global__ void khalf(unsigned short *out)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short x = k, r;
    if (F == 0) asm volatile("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
    if (F == 1) asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
    if (F == 2) asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(x));
    if (F == 3) asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x));
    out[k] = r;
}

#define NSPECIAL 48
__host__ __device__ unsigned gen(unsigned i, unsigned v)
{
    const unsigned sp[NSPECIAL] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x3f800000, 0xbf800000,
        0x3f000000, 0x40000000, 0x00800000, 0x80800000, 0x00000001, 0x007fffff, 0x80400000, 0x7f7fffff,
        0xff7fffff, 0x42fc0000, 0x42fffffe, 0x43000000, 0xc2fc0000, 0xc2fe0000, 0xc3150000, 0xc3160000,
        0xc2fb0000, 0x40490fdb, 0xc0490fdb, 0x0da24260, 0x3fc90fdb, 0x42c80000, 0x447a0000, 0x7149f2ca,
        0x3e800000, 0xc2fd0000, 0xc2fc8000, 0xc2fe8000, 0x33800000, 0xb3800000, 0x2f800000, 0x41100000,
        0xc1100000, 0x41200000, 0x3a800000, 0x39800000, 0x46000000, 0x40c90fdb, 0x3f7fffff, 0x3f800001};
    if (i < NSPECIAL) return sp[i];
    unsigned z = i * 0x9e3779b9u + (v + 1) * 0x85ebca6bu;
    z ^= z >> 16; z *= 0x7feb352du; z ^= z >> 15; z *= 0x846ca68bu; z ^= z >> 16;
    if (i & 1) return z;
    return (z & 0x807fffffu) | ((100u + ((z >> 23) & 0xffu) % 48u) << 23);
}

#define NRAND 65536
#define NVAR 13
__global__ void krand(unsigned *out, unsigned salt)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= NRAND) return;
    for (int v = 0; v < NVAR; ++v) {
        float x = __uint_as_float(gen(i, v + salt)), r;
        switch (v) {
        case 0: asm volatile("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 1: asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 2: asm volatile("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 3: asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 4: asm volatile("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 5: asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 6: asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 7: asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 8: asm volatile("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 9: asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 10: asm volatile("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        case 11: asm volatile("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        default: asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
        }
        out[v * NRAND + i] = __float_as_uint(r);
    }
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); exit(1); }
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    return f;
}

// byte-coded differences of consecutive words
static void put_deltas(FILE *o, const unsigned *h, size_t n)
{
    unsigned prev = 0;
    for (size_t k = 0; k < n; ++k) {
        int d = (int)(h[k] - prev);
        prev = h[k];
        if (d >= -127 && d <= 127) fputc((unsigned char)(signed char)d, o);
        else { fputc(0x80, o); fwrite(&d, 4, 1, o); }
    }
}

struct Seg { int f; unsigned start, n, step; };

static void run_tab(int f, unsigned *d, unsigned s, unsigned n, unsigned st)
{
    unsigned g = (n + 255) / 256;
    switch (f) {
    case EX2: ktab<EX2><<<g, 256>>>(d, s, n, st); break;
    case LG2: ktab<LG2><<<g, 256>>>(d, s, n, st); break;
    case RSQ: ktab<RSQ><<<g, 256>>>(d, s, n, st); break;
    case SQRT: ktab<SQRT><<<g, 256>>>(d, s, n, st); break;
    case TANH: ktab<TANH><<<g, 256>>>(d, s, n, st); break;
    case SIN: ktab<SIN><<<g, 256>>>(d, s, n, st); break;
    default: ktab<COS><<<g, 256>>>(d, s, n, st); break;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: mufu2 struct|tables|sincos|half|rand|tables2|rand2 OUTDIR\n"); return 2; }
    const char *mode = argv[1], *dir = argv[2];
    if (!strcmp(mode, "struct")) {
        unsigned *d, n = NF * 512 * 23;
        check(cudaMalloc(&d, 4 * n), "malloc");
        check(cudaMemset(d, 0, 4 * n), "memset");
        kstruct<EX2><<<65536, 256>>>(d);
        kstruct<LG2><<<65536, 256>>>(d);
        kstruct<RSQ><<<65536, 256>>>(d);
        kstruct<SQRT><<<65536, 256>>>(d);
        kstruct<TANH><<<65536, 256>>>(d);
        kstruct<SIN><<<65536, 256>>>(d);
        kstruct<COS><<<65536, 256>>>(d);
        unsigned *h = (unsigned *)malloc(4 * n);
        check(cudaMemcpy(h, d, 4 * n, cudaMemcpyDeviceToHost), "struct");
        FILE *o = open_out(dir, "struct.bin");
        fwrite(h, 4, n, o);
        fclose(o);
        return 0;
    }
    if (!strcmp(mode, "tables") || !strcmp(mode, "sincos")) {
        // file name, function, segments (start bits, count, step in bits)
        static const Seg rsq[] = {{RSQ, 0x3f800000u, 1u << 24, 1}, {SQRT, 0x3f800000u, 1u << 24, 1}};
        static const Seg lg2[] = {{LG2, 0x3e800000u, 1u << 24, 1}, {LG2, 0x40000000u, 1u << 24, 1}};
        static const Seg ex2[] = {{EX2, 0x3e000000u, 1u << 25, 1}, {EX2, 0xbe000000u, 1u << 25, 1}};
        static const Seg th[] = {{TANH, 0x39800000u, 1u << 23, 16}};
        static const Seg sc[] = {{SIN, 0x3d800000u, 1u << 25, 1}, {COS, 0x3d800000u, 1u << 25, 1}};
        struct { const char *name; const Seg *s; int ns; } files[] = {
            {"rsq_sqrt.tab", rsq, 2}, {"lg2.tab", lg2, 2}, {"ex2.tab", ex2, 2}, {"tanh.tab", th, 1}};
        struct { const char *name; const Seg *s; int ns; } scf[] = {{"sincos.tab", sc, 2}};
        int nfiles = !strcmp(mode, "tables") ? 4 : 1;
        unsigned *d, *h = (unsigned *)malloc(4u << 25);
        check(cudaMalloc(&d, 4u << 25), "malloc");
        for (int i = 0; i < nfiles; ++i) {
            const char *name = nfiles == 4 ? files[i].name : scf[i].name;
            const Seg *s = nfiles == 4 ? files[i].s : scf[i].s;
            int ns = nfiles == 4 ? files[i].ns : scf[i].ns;
            FILE *o = open_out(dir, name);
            for (int j = 0; j < ns; ++j) {
                run_tab(s[j].f, d, s[j].start, s[j].n, s[j].step);
                check(cudaMemcpy(h, d, 4ull * s[j].n, cudaMemcpyDeviceToHost), name);
                put_deltas(o, h, s[j].n);
                printf("%s: %s from 0x%08x, %u inputs, step %u\n", name, fname[s[j].f], s[j].start, s[j].n, s[j].step);
            }
            fclose(o);
        }
        return 0;
    }
    if (!strcmp(mode, "half")) {
        unsigned short *d, *h = (unsigned short *)malloc(2 * 4 * 65536);
        check(cudaMalloc(&d, 2 * 4 * 65536), "malloc");
        khalf<0><<<256, 256>>>(d);
        khalf<1><<<256, 256>>>(d + 65536);
        khalf<2><<<256, 256>>>(d + 2 * 65536);
        khalf<3><<<256, 256>>>(d + 3 * 65536);
        check(cudaMemcpy(h, d, 2 * 4 * 65536, cudaMemcpyDeviceToHost), "half");
        FILE *o = open_out(dir, "half.bin");
        fwrite(h, 2, 4 * 65536, o);
        fclose(o);
        return 0;
    }
    if (!strcmp(mode, "tables2")) {
        unsigned *d, *h = (unsigned *)malloc(4u << 23);
        check(cudaMalloc(&d, 4u << 23), "malloc");
        unsigned n = 1u << 23;
        kneg<EX2><<<n / 256, 256>>>(d, n);
        check(cudaMemcpy(h, d, 4ull * n, cudaMemcpyDeviceToHost), "ex2neg");
        FILE *o = open_out(dir, "ex2neg.tab");
        put_deltas(o, h, n);
        fclose(o);
        printf("ex2neg.tab: ex2 of -k/2^23, %u inputs\n", n);
        n = 3u << 21;
        run_tab(TANH, d, 0x3f800000u, n, 4);
        check(cudaMemcpy(h, d, 4ull * n, cudaMemcpyDeviceToHost), "tanh2");
        o = open_out(dir, "tanh2.tab");
        put_deltas(o, h, n);
        fclose(o);
        printf("tanh2.tab: tanh from 0x3f800000, %u inputs, step 4\n", n);
        return 0;
    }
    if (!strcmp(mode, "rand") || !strcmp(mode, "rand2")) {
        unsigned salt = !strcmp(mode, "rand2") ? NVAR : 0;
        unsigned *d, *h = (unsigned *)malloc(4 * NVAR * NRAND);
        check(cudaMalloc(&d, 4 * NVAR * NRAND), "malloc");
        krand<<<NRAND / 256, 256>>>(d, salt);
        check(cudaMemcpy(h, d, 4 * NVAR * NRAND, cudaMemcpyDeviceToHost), "rand");
        FILE *o = open_out(dir, salt ? "rand2.bin" : "rand.bin");
        fwrite(h, 4, NVAR * NRAND, o);
        fclose(o);
        printf("rand: first inputs %08x %08x %08x %08x\n", gen(48, 0), gen(49, 0), gen(50, 3), gen(51, 12));
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
