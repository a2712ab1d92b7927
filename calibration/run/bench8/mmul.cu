// Matrix products on sizes that are not multiples of the tiles (C = A B, A M x K, B K x N):
// a thread per element through the read-only path (`const __restrict__` and `__ldg`); 16x16
// shared tiles with guarded loads; 32x8 blocks each computing four rows of a 32x32 tile (a
// register array); a double-precision product with 8x8 tiles and a `#pragma unroll`ed inner
// loop; and a batched product of 4x4 matrices a thread, the batch index in 64 bits.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

__global__ void ldgK(const float *__restrict__ a, const float *__restrict__ b, float *c, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += __ldg(&a[row * K + k]) * __ldg(&b[k * N + col]);
  c[row * N + col] = s;
}

__global__ void tile16K(const float *a, const float *b, float *c, int M, int N, int K) {
  __shared__ float as[16][16], bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float s = 0.f;
  for (int t = 0; t < (K + 15) / 16; ++t) {
    int ka = t * 16 + tx, kb = t * 16 + ty;
    as[ty][tx] = (row < M && ka < K) ? a[row * K + ka] : 0.f;
    bs[ty][tx] = (kb < K && col < N) ? b[kb * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < 16; ++k) s += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = s;
}

__global__ void rect32K(const float *a, const float *b, float *c, int M, int N, int K) {
  __shared__ float as[32][33], bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8
  int col = blockIdx.x * 32 + tx;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < (K + 31) / 32; ++t) {
    for (int q = 0; q < 4; ++q) {
      int r = ty + 8 * q;
      int grow = blockIdx.y * 32 + r, ka = t * 32 + tx, kb = t * 32 + r;
      as[r][tx] = (grow < M && ka < K) ? a[grow * K + ka] : 0.f;
      bs[r][tx] = (kb < K && col < N) ? b[kb * N + col] : 0.f;
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
      float bv = bs[k][tx];
      for (int q = 0; q < 4; ++q) acc[q] += as[ty + 8 * q][k] * bv;
    }
    __syncthreads();
  }
  for (int q = 0; q < 4; ++q) {
    int grow = blockIdx.y * 32 + ty + 8 * q;
    if (grow < M && col < N) c[grow * N + col] = acc[q];
  }
}

__global__ void dtileK(const double *a, const double *b, double *c, int M, int N, int K) {
  __shared__ double as[8][8], bs[8][9];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 8 + ty, col = blockIdx.x * 8 + tx;
  double s = 0.0;
  for (int t = 0; t < (K + 7) / 8; ++t) {
    int ka = t * 8 + tx, kb = t * 8 + ty;
    as[ty][tx] = (row < M && ka < K) ? a[row * K + ka] : 0.0;
    bs[ty][tx] = (kb < K && col < N) ? b[kb * N + col] : 0.0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 8; ++k) s += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = s;
}

__global__ void batch4K(const float4 *a, const float4 *b, float4 *c, long long nb) {
  long long m = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= nb) return;
  float4 ra[4], rb[4];
  for (int i = 0; i < 4; ++i) { ra[i] = a[m * 4 + i]; rb[i] = b[m * 4 + i]; }
  for (int i = 0; i < 4; ++i) {
    float4 o;
    o.x = ra[i].x * rb[0].x + ra[i].y * rb[1].x + ra[i].z * rb[2].x + ra[i].w * rb[3].x;
    o.y = ra[i].x * rb[0].y + ra[i].y * rb[1].y + ra[i].z * rb[2].y + ra[i].w * rb[3].y;
    o.z = ra[i].x * rb[0].z + ra[i].y * rb[1].z + ra[i].z * rb[2].z + ra[i].w * rb[3].z;
    o.w = ra[i].x * rb[0].w + ra[i].y * rb[1].w + ra[i].z * rb[2].w + ra[i].w * rb[3].w;
    c[m * 4 + i] = o;
  }
}

int main() {
  const int M = 100, N = 72, K = 90;
  float *a = (float *)malloc(M * K * 4), *b = (float *)malloc(K * N * 4), *c = (float *)malloc(M * N * 4);
  double *ad = (double *)malloc(M * K * 8), *bd = (double *)malloc(K * N * 8), *cd = (double *)malloc(M * N * 8);
  double *ref = (double *)malloc(M * N * 8);
  unsigned r = 17;
  for (int i = 0; i < M * K; ++i) { r = r * 1664525u + 1013904223u; a[i] = ((r >> 20) % 17) / 8.0f - 1.0f; ad[i] = a[i]; }
  for (int i = 0; i < K * N; ++i) { r = r * 1664525u + 1013904223u; b[i] = ((r >> 20) % 13) / 4.0f - 1.5f; bd[i] = b[i]; }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += (double)a[i * K + k] * b[k * N + j];
      ref[i * N + j] = s;
    }
  float *da, *db, *dc;
  double *dad, *dbd, *dcd;
  cudaMalloc(&da, M * K * 4); cudaMalloc(&db, K * N * 4); cudaMalloc(&dc, M * N * 4);
  cudaMalloc(&dad, M * K * 8); cudaMalloc(&dbd, K * N * 8); cudaMalloc(&dcd, M * N * 8);
  cudaMemcpy(da, a, M * K * 4, cudaMemcpyHostToDevice); cudaMemcpy(db, b, K * N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dad, ad, M * K * 8, cudaMemcpyHostToDevice); cudaMemcpy(dbd, bd, K * N * 8, cudaMemcpyHostToDevice);
  int bad = 0;
  double cs = 0;
  for (int v = 0; v < 3; ++v) {
    cudaMemset(dc, 0, M * N * 4);
    if (v == 0) ldgK<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(da, db, dc, M, N, K);
    if (v == 1) tile16K<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(da, db, dc, M, N, K);
    if (v == 2) rect32K<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 8)>>>(da, db, dc, M, N, K);
    cudaMemcpy(c, dc, M * N * 4, cudaMemcpyDeviceToHost);
    double e = 0;
    for (int i = 0; i < M * N; ++i) { e = fmax(e, fabs(c[i] - ref[i])); cs += c[i] * (v + 1); }
    printf("float product %d: max error %.3e\n", v, e);
    if (e > 1e-3) ++bad;
  }
  dtileK<<<dim3((N + 7) / 8, (M + 7) / 8), dim3(8, 8)>>>(dad, dbd, dcd, M, N, K);
  cudaMemcpy(cd, dcd, M * N * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < M * N; ++i) if (cd[i] != ref[i]) ++bad;  // small exact values: no rounding
  const long long NB = 700;
  float *ba = (float *)malloc(NB * 64), *bb = (float *)malloc(NB * 64), *bc = (float *)malloc(NB * 64);
  for (long long i = 0; i < NB * 16; ++i) { ba[i] = (float)(i % 7) - 3; bb[i] = (float)(i % 5) * 0.5f; }
  float4 *d4a, *d4b, *d4c;
  cudaMalloc(&d4a, NB * 64); cudaMalloc(&d4b, NB * 64); cudaMalloc(&d4c, NB * 64);
  cudaMemcpy(d4a, ba, NB * 64, cudaMemcpyHostToDevice); cudaMemcpy(d4b, bb, NB * 64, cudaMemcpyHostToDevice);
  batch4K<<<(NB + 63) / 64, 64>>>(d4a, d4b, d4c, NB);
  cudaMemcpy(bc, d4c, NB * 64, cudaMemcpyDeviceToHost);
  for (long long m = 0; m < NB; ++m)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        float s = 0;
        for (int k = 0; k < 4; ++k) s += ba[m * 16 + i * 4 + k] * bb[m * 16 + k * 4 + j];
        if (s != bc[m * 16 + i * 4 + j]) ++bad;
        cs += s;
      }
  printf("mmul checksum %.6f %s (%d bad)\n", cs, bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
