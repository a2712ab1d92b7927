// Classic: work-efficient (Blelloch) exclusive scan of 512 ints per block, up-sweep then down-sweep,
// with conflict-free offsets (one padding word every 32 elements, as in GPU Gems 3 ch. 39).
// Launch: grid 2x1x1, block 256x1x1. Args: out (1024 ints), in (1024 ints).
#define NELEM 512
#define LOG_NUM_BANKS 5
#define OFFSET(n) ((n) >> LOG_NUM_BANKS)

extern "C" __global__ void scanBlellochCF(int *out, const int *in)
{
    __shared__ int temp[NELEM + NELEM / 32];
    int thid = threadIdx.x;
    const int *g_in = in + blockIdx.x * NELEM;
    int *g_out = out + blockIdx.x * NELEM;
    int ai = thid, bi = thid + NELEM / 2;
    temp[ai + OFFSET(ai)] = g_in[ai];
    temp[bi + OFFSET(bi)] = g_in[bi];
    int offset = 1;
    for (int d = NELEM >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += OFFSET(a);
            b += OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[NELEM - 1 + OFFSET(NELEM - 1)] = 0;
    for (int d = 1; d < NELEM; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += OFFSET(a);
            b += OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    g_out[ai] = temp[ai + OFFSET(ai)];
    g_out[bi] = temp[bi + OFFSET(bi)];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(4);
    std::vector<int> in(2 * NELEM), want(2 * NELEM);
    for (auto &v : in) v = rng.small_int();
    for (int blk = 0; blk < 2; blk++) {
        int acc = 0;
        for (int i = 0; i < NELEM; i++) {
            want[blk * NELEM + i] = acc;
            acc += in[blk * NELEM + i];
        }
    }
    DevBuf<int> din(in), dout(2 * NELEM);
    scanBlellochCF<<<2, NELEM / 2>>>(dout.d, din.d);
    launched("scanBlellochCF");
    return expect_equal("scanBlellochCF", dout.get(), want);
}
#endif
