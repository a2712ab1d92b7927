// Classic: transpose of a 32x32 tile of float4 (16-byte elements) through shared memory,
// padded to [32][33]: a row is 33 x 16 bytes, so consecutive rows start 4 banks apart.
// 128-bit accesses (LDS.128/STS.128) are served a quarter-warp at a time: 4 wavefronts at best.
// Each block moves its own 32x32 tile. Launch: grid 2x1x1, block 32x8x1. Args: out, in (2048 float4 each).
#define TILE 32
#define ROWS 8

extern "C" __global__ void float4TilePad(float4 *out, const float4 *in)
{
    __shared__ float4 tile[TILE][TILE + 1];
    const float4 *src = in + blockIdx.x * TILE * TILE;
    float4 *dst = out + blockIdx.x * TILE * TILE;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = src[(threadIdx.y + j) * TILE + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        dst[(threadIdx.y + j) * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(6);
    const int n = 2 * TILE * TILE;
    std::vector<float> in(4 * n), want(4 * n);
    for (auto &v : in) v = rng.uniform();
    for (int b = 0; b < 2; b++)
        for (int r = 0; r < TILE; r++)
            for (int c = 0; c < TILE; c++)
                for (int k = 0; k < 4; k++)
                    want[4 * (b * TILE * TILE + c * TILE + r) + k] = in[4 * (b * TILE * TILE + r * TILE + c) + k];
    DevBuf<float> din(in), dout(4 * n);
    float4TilePad<<<2, dim3(TILE, ROWS)>>>((float4 *)dout.d, (const float4 *)din.d);
    launched("float4TilePad");
    return expect_equal("float4TilePad", dout.get(), want);
}
#endif
