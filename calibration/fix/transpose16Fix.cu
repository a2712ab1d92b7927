// transpose16.cu with the padding `warpscope fix` recommends: rows of 32 floats (two tile rows, 128
// bytes) get 2 more, so element i = 16 r + c lives at (i / 32) * 34 + i % 32. A warp's two tile rows
// stay contiguous (stores conflict-free) and the column read spreads over all banks.
// Same results; 64 more bytes of shared memory.
#define T 16
#define N 64

extern "C" __global__ void transpose16Fix(float *out, const float *in)
{
    __shared__ float tile[T / 2][2 * T + 2];
    int x = blockIdx.x * T + threadIdx.x;
    int y = blockIdx.y * T + threadIdx.y;
    tile[threadIdx.y / 2][(threadIdx.y % 2) * T + threadIdx.x] = in[y * N + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x / 2][(threadIdx.x % 2) * T + threadIdx.y];
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
    transpose16Fix<<<dim3(N / T, N / T), dim3(T, T)>>>(dout.d, din.d);
    launched("transpose16Fix");
    return expect_equal("transpose16Fix", dout.get(), want);
}
#endif
