// Own kernel: transpose of a 64x64 float matrix through 16x16 shared tiles (block 16x16, grid 4x4).
// A warp is two tile rows (threadIdx.y and threadIdx.y + 1); reading a tile column puts lanes tx and
// tx + 2 on the same bank (rows are 16 words): an 8-way conflict. `warpscope fix` on this launch is
// what transpose16Fix.cu applies. Args: out, in (4096 floats each).
#define T 16
#define N 64
#ifndef PAD
#define PAD 0
#endif

extern "C" __global__ void transpose16(float *out, const float *in)
{
    __shared__ float tile[T][T + PAD];
    int x = blockIdx.x * T + threadIdx.x;
    int y = blockIdx.y * T + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * N + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

#ifdef WARPSCOPE_HOST
#include "../kernels/harness.h"
int main()
{
    Rng rng(11);
    std::vector<float> in(N * N), want(N * N);
    for (auto &v : in) v = rng.uniform();
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) want[c * N + r] = in[r * N + c];
    DevBuf<float> din(in), dout(N * N);
    transpose16<<<dim3(N / T, N / T), dim3(T, T)>>>(dout.d, din.d);
    launched("transpose16");
    return expect_equal("transpose16", dout.get(), want);
}
#endif
