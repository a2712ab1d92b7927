// Classic: 1-D stencil of radius 3 with a shared tile and halo: each block stages BLOCK + 2 RADIUS ints
// (the first RADIUS threads also load the left and right halo), then each output sums 7 neighbours.
// n = 512 outputs; the input holds n + 2 RADIUS ints. Launch: grid 4x1x1, block 128x1x1. Args: out, in.
#define RADIUS 3
#define BLOCK 128

extern "C" __global__ void stencil1d(int *out, const int *in)
{
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int gindex = blockIdx.x * BLOCK + threadIdx.x + RADIUS;
    int lindex = threadIdx.x + RADIUS;
    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        temp[lindex + BLOCK] = in[gindex + BLOCK];
    }
    __syncthreads();
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];
    out[gindex - RADIUS] = result;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    const int n = 4 * BLOCK;
    Rng rng(5);
    std::vector<int> in(n + 2 * RADIUS), want(n, 0);
    for (auto &v : in) v = rng.small_int();
    for (int i = 0; i < n; i++)
        for (int o = -RADIUS; o <= RADIUS; o++) want[i] += in[i + RADIUS + o];
    DevBuf<int> din(in), dout(n);
    stencil1d<<<4, BLOCK>>>(dout.d, din.d);
    launched("stencil1d");
    return expect_equal("stencil1d", dout.get(), want);
}
#endif
