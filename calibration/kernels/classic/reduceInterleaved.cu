// Classic: block sum reduction in shared memory, interleaved addressing with a divergent branch (tid % (2s) == 0).
// 256 ints per block. Launch: grid 4x1x1, block 256x1x1. Args: out (one sum per block), in (1024 ints).
#define BLOCK 256

extern "C" __global__ void reduceInterleaved(int *out, const int *in)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(2);
    std::vector<int> in(4 * BLOCK), want(4, 0);
    for (auto &v : in) v = rng.small_int();
    for (int i = 0; i < 4 * BLOCK; i++) want[i / BLOCK] += in[i];
    DevBuf<int> din(in), dout(4);
    reduceInterleaved<<<4, BLOCK>>>(dout.d, din.d);
    launched("reduceInterleaved");
    return expect_equal("reduceInterleaved", dout.get(), want);
}
#endif
