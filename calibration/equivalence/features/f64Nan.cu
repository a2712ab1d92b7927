// NaN results of .f64 arithmetic: add, sub, mul and fma with a NaN operand in each position (NaNs of
// random sign and payload, quiet or signalling), two NaN operands, NaNs the arithmetic generates
// (inf - inf, 0 * inf), min/max with NaNs, and conversions of NaNs between .f32 and .f64. Even threads
// take NaN operands; odd threads take the same bits unforced (random values, mostly not NaN).
// Launch: grid 2, block 64. Args: out (128 threads x 48 words), in (128 x 4 words).
__device__ static double nan_of(unsigned int hi, unsigned int lo, bool force)
{
    unsigned long long b = (unsigned long long)hi << 32 | lo;
    if (force) b = 0x7ff0000000000001ull | (b & 0x800fffffffffffffull);
    return __longlong_as_double((long long)b);
}

__device__ static void put(unsigned int *o, int k, double v)
{
    unsigned long long b = (unsigned long long)__double_as_longlong(v);
    o[2 * k] = (unsigned int)b;
    o[2 * k + 1] = (unsigned int)(b >> 32);
}

extern "C" __global__ void f64Nan(unsigned int *out, const unsigned int *in)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int ra = in[4 * i], rb = in[4 * i + 1], rc = in[4 * i + 2], rd = in[4 * i + 3];
    bool force = (i & 1) == 0;
    double n = nan_of(ra, rb, force);
    double m = nan_of(rc, rd, force);
    double y = (double)(int)rc * 0.5 + 1.0;
    double huge = __longlong_as_double((long long)(0x7fe0000000000000ull | (ra & 0xfffffu)));
    double inf = __dadd_rn(huge, huge);
    unsigned int fx = force ? (0x7f800001u | (ra & 0x807fffffu)) : ra;
    float x = __uint_as_float(fx);
    unsigned int *o = out + 48 * i;
    put(o, 0, __dadd_rn(n, y));
    put(o, 1, __dadd_rn(y, n));
    put(o, 2, __dadd_rn(n, m));
    put(o, 3, __dsub_rn(n, y));
    put(o, 4, __dsub_rn(y, n));
    put(o, 5, __dmul_rn(n, y));
    put(o, 6, __dmul_rn(y, n));
    put(o, 7, __dmul_rn(n, m));
    put(o, 8, __fma_rn(n, y, y));
    put(o, 9, __fma_rn(y, n, y));
    put(o, 10, __fma_rn(y, y, n));
    put(o, 11, __fma_rn(n, m, y));
    put(o, 12, __dsub_rn(inf, inf));
    put(o, 13, __dmul_rn(inf, (double)(ra & 0u) * y));
    put(o, 14, fmin(n, m));
    put(o, 15, fmax(n, y));
    // .f32 <-> .f64 conversions of NaNs, and the arithmetic that follows a widened NaN.
    double wx = (double)x;
    o[44] = (unsigned int)__double_as_longlong(wx);
    o[45] = (unsigned int)(__double_as_longlong(wx) >> 32);
    o[46] = __float_as_uint(__double2float_rn(n));
    o[47] = (unsigned int)(__double_as_longlong(__dadd_rn(wx, y)) >> 32) ^ (unsigned int)__double_as_longlong(__dadd_rn(wx, y));
    put(o, 16, fmin(y, n));
    put(o, 17, fmax(n, m));
    put(o, 18, __fma_rn(n, y, m));
    put(o, 19, __dadd_rn(-n, y));
    put(o, 20, __dmul_rn(-n, -y));
    put(o, 21, __fma_rn(-n, y, -y));
}
