// Classic: broadcast and multicast. Every lane reading the same word is one wavefront (broadcast); lanes
// reading a few distinct words in distinct banks are one wavefront too (multicast); two distinct words in
// one bank take two. Launch: grid 2x1x1, block 64x1x1. Args: out (128 floats), in (128 floats).
#define BLOCK 64

extern "C" __global__ void broadcast(float *out, const float *in)
{
    __shared__ float s[BLOCK];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    float all_same = s[0];
    float four_words = s[tid / 8 % 4];
    float one_bank_two_words = s[(tid % 2) * 32];
    out[blockIdx.x * BLOCK + tid] = all_same + 2.0f * four_words + 4.0f * one_bank_two_words;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(7);
    std::vector<float> in(2 * BLOCK), want(2 * BLOCK);
    for (auto &v : in) v = rng.uniform();
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < BLOCK; t++) {
            const float *s = &in[b * BLOCK];
            want[b * BLOCK + t] = s[0] + 2.0f * s[t / 8 % 4] + 4.0f * s[(t % 2) * 32];
        }
    DevBuf<float> din(in), dout(2 * BLOCK);
    broadcast<<<2, BLOCK>>>(dout.d, din.d);
    launched("broadcast");
    return expect_equal("broadcast", dout.get(), want);
}
#endif
