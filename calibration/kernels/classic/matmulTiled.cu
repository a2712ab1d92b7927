// Classic: tiled matrix multiply C = A B with 16x16 shared tiles. In the inner loop, As[ty][k] for
// consecutive k is the same address for every lane of a half-warp row (a broadcast), and ptxas fuses the
// unrolled scalar loads of As into 128-bit LDS; Bs[k][tx] is a conflict-free row read.
// Matrices 64x64. Launch: grid 4x4x1, block 16x16x1. Args: C, A, B.
#define T 16
#define N 64

extern "C" __global__ void matmulTiled(float *C, const float *A, const float *B)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int t = 0; t < N / T; t++) {
        As[ty][tx] = A[row * N + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = sum;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    Rng rng(3);
    std::vector<float> a(N * N), b(N * N);
    for (auto &v : a) v = rng.uniform();
    for (auto &v : b) v = rng.uniform();
    std::vector<double> want(N * N, 0.0);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) want[i * N + j] += (double)a[i * N + k] * b[k * N + j];
    DevBuf<float> da(a), db(b), dc(N * N);
    matmulTiled<<<dim3(N / T, N / T), dim3(T, T)>>>(dc.d, da.d, db.d);
    launched("matmulTiled");
    return expect_close("matmulTiled", dc.get(), want, 1e-5);
}
#endif
