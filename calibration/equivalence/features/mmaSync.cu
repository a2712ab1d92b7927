// mma.sync on the tensor cores, one kernel per shape and type: m16n8k16 and m16n8k8 f16/bf16 ->
// f32, m16n8k16 f16 -> f16, m16n8k8 tf32 -> f32, m8n8k4 f64, m16n8k32 s8/u8 -> s32 (.satfinite).
// Inputs are built from random bits in eight regimes per warp (the regime is the iteration):
//   0: operands with exponents near 1 (2^-3..2^3), C near 1 (2^-6..2^6)
//   1: operands over the whole normal range, C over 2^-40..2^40
//   2: cancelling pairs: within each 32-bit A register both halves are equal and B's second half
//      is minus the first with its low mantissa bits flipped, so products cancel to a few bits
//   3: subnormal and tiny operands, C tiny or zero
//   4: raw random bits (NaN, infinities, subnormals)
//   5: like 0 but with C = 0
//   6: like 0 with operands of random exponents 2^-8..2^8 (alignment shifts)
//   7: like 2 with C = +-2^-24..2^-20
// Launch: grid 4, block 128 (16 warps x 8 regimes). Args: out (16 x 8 x 32 lanes x 4 words),
// in (16 x 8 x 32 x 16 words).
#include <cstdint>

__device__ __forceinline__ unsigned h16(unsigned r, unsigned g, bool bf)
{
    // a half (f16, or bf16 when bf) from random bits r in regime g
    unsigned s = r & 0x8000, e, m, bias = bf ? 127 : 15, mb = bf ? 7 : 10;
    m = r & ((1u << mb) - 1);
    unsigned x = (r >> 16);
    switch (g) {
    case 0: case 2: case 5: case 7: e = bias - 3 + x % 7; break;
    case 1: e = 1 + x % (bf ? 254 : 30); break;
    case 3: e = x % 3; break;
    case 6: e = bias - 8 + x % 17; break;
    default: return r & 0xffff;
    }
    return s | (e << mb) | m;
}

__device__ __forceinline__ unsigned pack(unsigned lo, unsigned hi) { return lo | (hi << 16); }

__device__ __forceinline__ unsigned areg(const unsigned *r, unsigned g, bool bf)
{
    unsigned lo = h16(r[0], g, bf);
    unsigned hi = (g == 2 || g == 7) ? lo : h16(r[0] >> 3 ^ r[1], g, bf);
    return pack(lo, hi);
}

__device__ __forceinline__ unsigned breg(const unsigned *r, unsigned g, bool bf)
{
    unsigned lo = h16(r[0], g, bf);
    unsigned hi = (g == 2 || g == 7) ? ((lo ^ 0x8000) ^ (r[1] & 7)) : h16(r[0] >> 3 ^ r[1], g, bf);
    return pack(lo, hi);
}

__device__ __forceinline__ unsigned f32c(unsigned r, unsigned g)
{
    unsigned s = r & 0x80000000u, m = r & 0x7fffff, x = r >> 23 & 0xff;
    unsigned e;
    switch (g) {
    case 0: case 2: case 6: e = 121 + x % 13; break;
    case 1: e = 87 + x % 81; break;
    case 3: e = x % 2 ? 0 : x % 8; break;
    case 5: return 0;
    case 7: e = 103 + x % 5; break;
    default: return r;
    }
    return s | (e << 23) | m;
}

#define SETUP(NIN)                                                                  \
    unsigned lane = threadIdx.x & 31;                                               \
    unsigned warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);            \
    (void)lane;

extern "C" __global__ void mma_f16_k16(float *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = areg(r, g, false), a1 = areg(r + 1, g, false), a2 = areg(r + 2, g, false), a3 = areg(r + 3, g, false);
        unsigned b0 = breg(r + 4, g, false), b1 = breg(r + 5, g, false);
        float c0 = __uint_as_float(f32c(r[6], g)), c1 = __uint_as_float(f32c(r[7], g));
        float c2 = __uint_as_float(f32c(r[8], g)), c3 = __uint_as_float(f32c(r[9], g));
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}

extern "C" __global__ void mma_bf16_k16(float *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = areg(r, g, true), a1 = areg(r + 1, g, true), a2 = areg(r + 2, g, true), a3 = areg(r + 3, g, true);
        unsigned b0 = breg(r + 4, g, true), b1 = breg(r + 5, g, true);
        float c0 = __uint_as_float(f32c(r[6], g)), c1 = __uint_as_float(f32c(r[7], g));
        float c2 = __uint_as_float(f32c(r[8], g)), c3 = __uint_as_float(f32c(r[9], g));
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}

extern "C" __global__ void mma_f16_k8(float *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = areg(r, g, false), a1 = areg(r + 1, g, false);
        unsigned b0 = breg(r + 4, g, false);
        float c0 = __uint_as_float(f32c(r[6], g)), c1 = __uint_as_float(f32c(r[7], g));
        float c2 = __uint_as_float(f32c(r[8], g)), c3 = __uint_as_float(f32c(r[9], g));
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}

extern "C" __global__ void mma_bf16_k8(float *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = areg(r, g, true), a1 = areg(r + 1, g, true);
        unsigned b0 = breg(r + 4, g, true);
        float c0 = __uint_as_float(f32c(r[6], g)), c1 = __uint_as_float(f32c(r[7], g));
        float c2 = __uint_as_float(f32c(r[8], g)), c3 = __uint_as_float(f32c(r[9], g));
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}

extern "C" __global__ void mma_f16_k16_f16acc(unsigned *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = areg(r, g, false), a1 = areg(r + 1, g, false), a2 = areg(r + 2, g, false), a3 = areg(r + 3, g, false);
        unsigned b0 = breg(r + 4, g, false), b1 = breg(r + 5, g, false);
        unsigned c0 = areg(r + 6, g == 3 ? 0 : g, false) ^ (r[8] & 0x80008000u), c1 = areg(r + 7, g == 3 ? 0 : g, false);
        unsigned d0, d1;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(d0), "=r"(d1)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = 0; out[c * 4 + 3] = 0;
    }
}

__device__ __forceinline__ unsigned tf32(unsigned r, unsigned g)
{
    // an f32 whose low 13 bits are random too (the tf32 operand ignores or rounds them)
    unsigned s = r & 0x80000000u, m = r & 0x7fffff, x = r >> 23 & 0xff, e;
    switch (g) {
    case 0: case 2: case 5: case 7: e = 124 + x % 7; break;
    case 1: e = 1 + x % 254; break;
    case 3: e = x % 3; break;
    case 6: e = 119 + x % 17; break;
    default: return r;
    }
    return s | (e << 23) | m;
}

extern "C" __global__ void mma_tf32_k8(float *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        unsigned a0 = tf32(r[0], g), a1 = tf32(r[1], g), a2 = tf32(r[2], g), a3 = tf32(r[3], g);
        unsigned b0 = tf32(r[4], g), b1 = tf32(r[5], g);
        if (g == 2 || g == 7) { a2 = a0; b1 = (b0 ^ 0x80000000u) ^ (r[10] & 0xe007); }
        float c0 = __uint_as_float(f32c(r[6], g)), c1 = __uint_as_float(f32c(r[7], g));
        float c2 = __uint_as_float(f32c(r[8], g)), c3 = __uint_as_float(f32c(r[9], g));
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}

__device__ __forceinline__ double f64v(const unsigned *r, unsigned g)
{
    unsigned long long bits = ((unsigned long long)r[1] << 32) | r[0];
    unsigned long long s = bits & 0x8000000000000000ull, m = bits & 0xfffffffffffffull;
    unsigned x = r[1] >> 20 & 0x7ff;
    unsigned long long e;
    switch (g) {
    case 0: case 2: case 5: case 7: e = 1020 + x % 7; break;
    case 1: e = 1 + x % 2046; break;
    case 3: e = x % 3; break;
    case 6: e = 1000 + x % 47; break;
    default: return __longlong_as_double(bits);
    }
    return __longlong_as_double(s | (e << 52) | m);
}

extern "C" __global__ void mma_f64(double *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        double a = f64v(r, g), b = f64v(r + 2, g), c0 = f64v(r + 4, g), c1 = f64v(r + 6, g);
        if (g == 5) { c0 = 0.0; c1 = -0.0; }
        if (g == 2 || g == 7) { b = (lane & 1) ? -b : b; }
        double d0, d1;
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=d"(d0), "=d"(d1)
                     : "d"(a), "d"(b), "d"(c0), "d"(c1));
        out[c * 2] = d0; out[c * 2 + 1] = d1;
    }
}

extern "C" __global__ void mma_s8(int *out, const unsigned *in)
{
    SETUP(16)
    for (unsigned g = 0; g < 8; g++) {
        unsigned c = (warp * 8 + g) * 32 + lane;
        const unsigned *r = in + c * 16;
        int c0 = (int)r[6], c1 = (int)r[7], c2 = (int)(r[8] >> (g & 7)), c3 = (int)(r[9] >> 20);
        int d0, d1, d2, d3;
        if (g & 1) {
            asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                         : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        } else {
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                         : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        }
        out[c * 4] = d0; out[c * 4 + 1] = d1; out[c * 4 + 2] = d2; out[c * 4 + 3] = d3;
    }
}
