// Copy of calibration/kernels/classic/strided.cu (with the index through AT, the identity here): 32-bit reads
// with stride s (seed 004's shared[BaseIndex + s * tid] with 32 banks): the warp
// touches 32 / gcd(s, 32) banks, so stride 2 is a 2-way conflict, stride 3 none, stride 8 an 8-way conflict.
// Launch: grid 2x1x1, block 128x1x1. Args: out (256 floats), in (2048 floats).
#define BLOCK 128
#define SMEM 1024
#ifndef AT
#define AT(i) (i)
#endif

extern "C" __global__ void strided(float *out, const float *in)
{
    __shared__ float s[SMEM];
    unsigned int tid = threadIdx.x;
    for (int i = tid; i < SMEM; i += BLOCK)
        s[AT(i)] = in[blockIdx.x * SMEM + i];
    __syncthreads();
    unsigned int lane = tid % 32;
    float r = s[AT(2 * lane)] + s[AT(3 * lane)] + s[AT(8 * lane)];
    out[blockIdx.x * BLOCK + tid] = r;
}

#ifdef WARPSCOPE_HOST
#include "../kernels/harness.h"
int main()
{
    Rng rng(8);
    std::vector<float> in(2 * SMEM), want(2 * BLOCK);
    for (auto &v : in) v = rng.uniform();
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < BLOCK; t++) {
            const float *s = &in[b * SMEM];
            int l = t % 32;
            want[b * BLOCK + t] = s[2 * l] + s[3 * l] + s[8 * l];
        }
    DevBuf<float> din(in), dout(2 * BLOCK);
    strided<<<2, BLOCK>>>(dout.d, din.d);
    launched("strided");
    return expect_equal("strided", dout.get(), want);
}
#endif
