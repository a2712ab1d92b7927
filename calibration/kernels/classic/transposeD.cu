// Classic: matrix transpose through a shared tile of double, unpadded [32][32].
// A 32x8 block moves a 32x32 tile: it writes rows of the tile (coalesced global reads) and reads columns
// (coalesced global writes). Reading a column of an unpadded tile sends every lane of a warp to the same bank(s).
// Matrix 64x64. Launch: grid 2x2x1, block 32x8x1. Args: out, in.
#define TILE 32
#define ROWS 8
#define N 64

extern "C" __global__ void transposeD(double *out, const double *in)
{
    __shared__ double tile[TILE][TILE + 0];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(1);
    std::vector<double> in(N * N), want(N * N);
    for (auto &v : in) v = rng.uniform();
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) want[c * N + r] = in[r * N + c];
    DevBuf<double> din(in), dout(N * N);
    transposeD<<<dim3(2, 2), dim3(TILE, ROWS)>>>(dout.d, din.d);
    launched("transposeD");
    return expect_equal("transposeD", dout.get(), want);
}
#endif
