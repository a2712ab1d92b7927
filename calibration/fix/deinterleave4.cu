// Own kernel: a float4 tile[64][8] (128-byte rows, 16-byte elements) filled row by row, then read one
// column at a time with the even rows first and the odd rows after (a de-interleave, as when splitting
// real and imaginary rows). Each quarter-warp (8 lanes x 16 bytes) reads 8 rows two apart in one column:
// with 128-byte rows they all sit on the same 4 banks (8-way). Padding each 128-byte row by whole
// float4s leaves at least a 2-way conflict (rows two apart move by 2 x pad); padding every 256 bytes
// works (+512 B), and so does an XOR swizzle of the column with row bits 1..3 at no cost in memory:
// deinterleave4Fix.cu applies the swizzle `warpscope fix` proposes. Block 256, grid 2; each block
// moves its own tile.
// Args: out, in (1024 float4 each).
#define ROWS 64
#define COLS 8
#ifndef SWIZZLE
#define SWIZZLE(r, c) (c)
#endif

extern "C" __global__ void deinterleave4(float4 *out, const float4 *in)
{
    __shared__ float4 tile[ROWS][COLS];
    const float4 *src = in + blockIdx.x * ROWS * COLS;
    float4 *dst = out + blockIdx.x * ROWS * COLS;
    for (int i = threadIdx.x; i < ROWS * COLS; i += blockDim.x) {
        int r = i / COLS, c = i % COLS;
        tile[r][SWIZZLE(r, c)] = src[i];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ROWS * COLS; i += blockDim.x) {
        int c = i / ROWS, k = i % ROWS;
        int r = k < ROWS / 2 ? 2 * k : 2 * (k - ROWS / 2) + 1;
        dst[i] = tile[r][SWIZZLE(r, c)];
    }
}

#ifdef WARPSCOPE_HOST
#include "../kernels/harness.h"
int main()
{
    Rng rng(12);
    const int n = 2 * ROWS * COLS;
    std::vector<float> in(4 * n), want(4 * n);
    for (auto &v : in) v = rng.uniform();
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < ROWS * COLS; i++) {
            int c = i / ROWS, k = i % ROWS;
            int r = k < ROWS / 2 ? 2 * k : 2 * (k - ROWS / 2) + 1;
            for (int q = 0; q < 4; q++)
                want[4 * (b * ROWS * COLS + i) + q] = in[4 * (b * ROWS * COLS + r * COLS + c) + q];
        }
    DevBuf<float> din(in), dout(4 * n);
    deinterleave4<<<2, 256>>>((float4 *)dout.d, (const float4 *)din.d);
    launched("deinterleave4");
    return expect_equal("deinterleave4", dout.get(), want);
}
#endif
