// Classic: guards that predicate off one lane of a lane pair on wide shared loads. `if (t % 2 == 0)`
// leaves only the even lanes, so every pair (2k, 2k+1) has one lane off; `if (t < 59)` ends inside a
// warp with an odd number of lanes (27), so the last pair of that warp has one lane off. The even
// lanes read consecutive elements (lane 2k reads element k): on the H100 an 8-byte load of 16 such
// lanes is one wavefront and a 16-byte one two, as if the pairs were whole (calibration/bank/README.md).
// Launch: grid 2x1x1, block 128x1x1. Args: out (256 doubles), d (256 doubles), f (256 float4).
#define BLOCK 128
#define TAIL 59

extern "C" __global__ void guardPairs(double *out, const double *d, const float4 *f)
{
    __shared__ double s[BLOCK];
    __shared__ float4 q[BLOCK];
    unsigned int t = threadIdx.x;
    s[t] = d[blockIdx.x * BLOCK + t];
    q[t] = f[blockIdx.x * BLOCK + t];
    __syncthreads();
    double v = 0.0;
    if (t % 2 == 0)
        v = s[t / 2];  // LDS.64, even lanes only
    if (t < TAIL)
        v += s[BLOCK / 2 + t / 2];  // LDS.64, warp 1 ends at lane 26
    if (t % 2 == 0) {
        float4 e = q[t / 2];  // LDS.128, even lanes only
        v += (double)(((e.x + e.y) + e.z) + e.w);
    }
    out[blockIdx.x * BLOCK + t] = v;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(16);
    std::vector<double> d(2 * BLOCK), want(2 * BLOCK);
    std::vector<float> f(4 * 2 * BLOCK);
    for (auto &v : d) v = rng.uniform();
    for (auto &v : f) v = rng.uniform();
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < BLOCK; t++) {
            const double *s = &d[b * BLOCK];
            const float *q = &f[4 * b * BLOCK];
            double v = 0.0;
            if (t % 2 == 0) v = s[t / 2];
            if (t < TAIL) v += s[BLOCK / 2 + t / 2];
            if (t % 2 == 0) {
                const float *e = &q[4 * (t / 2)];
                v += (double)(((e[0] + e[1]) + e[2]) + e[3]);
            }
            want[b * BLOCK + t] = v;
        }
    DevBuf<double> dd(d), dout(2 * BLOCK);
    DevBuf<float> df(f);
    guardPairs<<<2, BLOCK>>>(dout.d, dd.d, (const float4 *)df.d);
    launched("guardPairs");
    return expect_equal("guardPairs", dout.get(), want);
}
#endif
