// NaN handling of sign and magnitude operations: abs and neg of .f32 and .f64, and min/max of two
// NaNs, on NaNs with random sign and payload (even threads) and on random values (odd threads).
// Launch: grid 2, block 64. Args: out (128 threads x 8 words), in (128 x 2 words).
extern "C" __global__ void nanRules(unsigned int *out, const unsigned int *in)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int ra = in[2 * i], rb = in[2 * i + 1];
    unsigned int na = (i & 1) ? ra : (0x7f800001u | (ra & 0x807fffffu));
    unsigned int nb = (i & 1) ? rb : (0x7f800001u | (rb & 0x807fffffu));
    float x = __uint_as_float(na), y = __uint_as_float(nb);
    unsigned long long d = (i & 1) ? ((unsigned long long)ra << 32 | rb)
                                   : (0x7ff0000000000001ull | ((unsigned long long)ra << 32 | rb) & 0x800fffffffffffffull);
    double dx = __longlong_as_double((long long)d);
    unsigned int *o = out + 8 * i;
    o[0] = __float_as_uint(fabsf(x));
    o[1] = __float_as_uint(-x);
    o[2] = __float_as_uint(fminf(x, y));
    o[3] = __float_as_uint(fmaxf(x, y));
    unsigned long long an = (unsigned long long)__double_as_longlong(fabs(dx));
    unsigned long long ng = (unsigned long long)__double_as_longlong(-dx);
    o[4] = (unsigned int)an;
    o[5] = (unsigned int)(an >> 32);
    o[6] = (unsigned int)ng;
    o[7] = (unsigned int)(ng >> 32);
}
