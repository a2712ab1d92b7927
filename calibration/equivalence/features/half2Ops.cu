// Packed half-precision arithmetic (PTX .f16x2 / .bf16x2: add, sub, mul, fma, min, max, neg, abs,
// add.sat, and cvt.rn.{f16x2,bf16x2}.f32), on random half2 bit patterns (NaN, infinities and
// subnormals included), plus the scalar neg/abs/add.sat of .f16, .bf16 and .f32 on the same bits.
// Launch: grid 2, block 64. Args: out (128 threads x 24 words), in (128 x 2 words). Each thread
// writes its 24 results as raw bits.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half2Ops(unsigned int *out, const unsigned int *in)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int ra = in[2 * i], rb = in[2 * i + 1];
    __half2 x = *reinterpret_cast<__half2 *>(&ra), y = *reinterpret_cast<__half2 *>(&rb);
    __nv_bfloat162 bx = *reinterpret_cast<__nv_bfloat162 *>(&ra), by = *reinterpret_cast<__nv_bfloat162 *>(&rb);
    __half2 r[10];
    r[0] = __hadd2(x, y);
    r[1] = __hsub2(x, y);
    r[2] = __hmul2(x, y);
    r[3] = __hfma2(x, y, r[0]);
    r[4] = __hmin2(x, y);
    r[5] = __hmax2(x, y);
    r[6] = __hneg2(x);
    r[7] = __habs2(y);
    r[8] = __hadd2_sat(x, y);
    r[9] = __floats2half2_rn((float)(int)(ra & 0xffff) * 0.37f, (float)(int)(rb >> 16) * -1.3f);
    __nv_bfloat162 b[6];
    b[0] = __hadd2(bx, by);
    b[1] = __hmul2(bx, by);
    b[2] = __hfma2(bx, by, b[0]);
    b[3] = __hneg2(bx);
    b[4] = __hmax2(bx, by);
    b[5] = __floats2bfloat162_rn(__uint_as_float(ra), __uint_as_float(rb));
    unsigned int *o = out + 24 * i;
    for (int k = 0; k < 10; k++)
        o[k] = *reinterpret_cast<unsigned int *>(&r[k]);
    for (int k = 0; k < 6; k++)
        o[10 + k] = *reinterpret_cast<unsigned int *>(&b[k]);
    __half h = __low2half(x), g = __high2half(y);
    __nv_bfloat16 bh = __low2bfloat16(bx);
    o[16] = __half_as_ushort(__hneg(h)) | (unsigned int)__half_as_ushort(__habs(g)) << 16;
    o[17] = __half_as_ushort(__hadd_sat(h, g)) | (unsigned int)__bfloat16_as_ushort(__hneg(bh)) << 16;
    float fa = __uint_as_float(ra), fb = __uint_as_float(rb);
    o[18] = __float_as_uint(-fa);
    o[19] = __float_as_uint(fabsf(fb));
    o[20] = __float_as_uint(__saturatef(fa + fb));
    o[21] = __float_as_uint(__saturatef(fa * fb));
    o[22] = __float_as_uint(fminf(fa, fb));
    o[23] = __float_as_uint(fmaxf(fa, fb));
}
