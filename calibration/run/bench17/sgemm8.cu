// SGEMM C = alpha A B + beta C (row-major), 128x128 tiles of C a block of 256 threads, 8x8 results a
// thread in registers (two 4-wide strips in each direction), K in steps of 8: A's tile read as
// float4 and stored transposed in shared memory, B's tile stored as float4, both read back as
// float4. Once with one shared buffer (two barriers a step), once double-buffered (the next tile
// fetched to registers during the products, stored to the other buffer, one barrier a step).
// M, N, K are multiples of the tiles. Checked against the host in double.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int BM = 128, BN = 128, BK = 8;

__device__ __forceinline__ void product(const float (*As)[BM], const float (*Bs)[BN], float acc[8][8], int ty, int tx) {
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float4 a0 = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
    float4 a1 = *reinterpret_cast<const float4*>(&As[k][64 + ty * 4]);
    float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
    float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][64 + tx * 4]);
    float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
  }
}

__device__ __forceinline__ void finish(float* C, float acc[8][8], int N, int row0, int col0, int ty, int tx, float alpha, float beta) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    int r = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float4* p = reinterpret_cast<float4*>(&C[(size_t)r * N + col0 + h * 64 + tx * 4]);
      float4 c = *p;
      c.x = alpha * acc[i][h * 4 + 0] + beta * c.x;
      c.y = alpha * acc[i][h * 4 + 1] + beta * c.y;
      c.z = alpha * acc[i][h * 4 + 2] + beta * c.z;
      c.w = alpha * acc[i][h * 4 + 3] + beta * c.w;
      *p = c;
    }
  }
}

__global__ void __launch_bounds__(256) sgemmSingle(const float* __restrict__ A, const float* __restrict__ B, float* C,
                                                   int M, int N, int K, float alpha, float beta) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  int tid = threadIdx.x, ty = tid / 16, tx = tid % 16;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int ar = tid / 2, ac = (tid % 2) * 4, br = tid / 32, bc = (tid % 32) * 4;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a = *reinterpret_cast<const float4*>(&A[(size_t)(row0 + ar) * K + k0 + ac]);
    As[ac + 0][ar] = a.x; As[ac + 1][ar] = a.y; As[ac + 2][ar] = a.z; As[ac + 3][ar] = a.w;
    *reinterpret_cast<float4*>(&Bs[br][bc]) = *reinterpret_cast<const float4*>(&B[(size_t)(k0 + br) * N + col0 + bc]);
    __syncthreads();
    product(As, Bs, acc, ty, tx);
    __syncthreads();
  }
  finish(C, acc, N, row0, col0, ty, tx, alpha, beta);
}

__global__ void __launch_bounds__(256) sgemmDouble(const float* __restrict__ A, const float* __restrict__ B, float* C,
                                                   int M, int N, int K, float alpha, float beta) {
  __shared__ __align__(16) float As[2][BK][BM];
  __shared__ __align__(16) float Bs[2][BK][BN];
  int tid = threadIdx.x, ty = tid / 16, tx = tid % 16;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int ar = tid / 2, ac = (tid % 2) * 4, br = tid / 32, bc = (tid % 32) * 4;
  float acc[8][8] = {};
  float4 a = *reinterpret_cast<const float4*>(&A[(size_t)(row0 + ar) * K + ac]);
  float4 b = *reinterpret_cast<const float4*>(&B[(size_t)br * N + col0 + bc]);
  As[0][ac + 0][ar] = a.x; As[0][ac + 1][ar] = a.y; As[0][ac + 2][ar] = a.z; As[0][ac + 3][ar] = a.w;
  *reinterpret_cast<float4*>(&Bs[0][br][bc]) = b;
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    bool more = k0 + BK < K;
    if (more) {
      a = *reinterpret_cast<const float4*>(&A[(size_t)(row0 + ar) * K + k0 + BK + ac]);
      b = *reinterpret_cast<const float4*>(&B[(size_t)(k0 + BK + br) * N + col0 + bc]);
    }
    product(As[cur], Bs[cur], acc, ty, tx);
    if (more) {
      int nx = cur ^ 1;
      As[nx][ac + 0][ar] = a.x; As[nx][ac + 1][ar] = a.y; As[nx][ac + 2][ar] = a.z; As[nx][ac + 3][ar] = a.w;
      *reinterpret_cast<float4*>(&Bs[nx][br][bc]) = b;
      __syncthreads();
      cur = nx;
    }
  }
  finish(C, acc, N, row0, col0, ty, tx, alpha, beta);
}

int main() {
  const int M = 1024, N = 1152, K = 768;
  const float alpha = 1.5f, beta = -0.5f;
  float *A = (float*)malloc(4 * M * K), *B = (float*)malloc(4 * K * N), *C = (float*)malloc(4 * M * N);
  unsigned s = 1u;
  auto r = [&]() { s = s * 747796405u + 2891336453u; return (float)((s >> 9) % 2001) / 1000.0f - 1.0f; };
  for (int i = 0; i < M * K; ++i) A[i] = r();
  for (int i = 0; i < K * N; ++i) B[i] = r();
  for (int i = 0; i < M * N; ++i) C[i] = r();
  float *dA, *dB, *dC1, *dC2;
  CK(cudaMalloc(&dA, 4 * M * K)); CK(cudaMalloc(&dB, 4 * K * N)); CK(cudaMalloc(&dC1, 4 * M * N)); CK(cudaMalloc(&dC2, 4 * M * N));
  CK(cudaMemcpy(dA, A, 4 * M * K, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B, 4 * K * N, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dC1, C, 4 * M * N, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dC2, C, 4 * M * N, cudaMemcpyHostToDevice));
  dim3 grid(N / BN, M / BM);
  sgemmSingle<<<grid, 256>>>(dA, dB, dC1, M, N, K, alpha, beta);
  sgemmDouble<<<grid, 256>>>(dA, dB, dC2, M, N, K, alpha, beta);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  float *G1 = (float*)malloc(4 * M * N), *G2 = (float*)malloc(4 * M * N);
  CK(cudaMemcpy(G1, dC1, 4 * M * N, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(G2, dC2, 4 * M * N, cudaMemcpyDeviceToHost));
  int bad = 0, differ = 0; double maxerr = 0, sum = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += (double)A[i * K + k] * B[k * N + j];
      ref = alpha * ref + beta * C[i * N + j];
      double e = fabs(ref - G1[i * N + j]);
      maxerr = e > maxerr ? e : maxerr;
      if (e > 1e-3 * (1 + fabs(ref))) ++bad;
      if (G1[i * N + j] != G2[i * N + j]) ++differ;
      sum += G1[i * N + j];
    }
  printf("sgemm8: %dx%dx%d, sum %.5f, max error %.2e, single/double-buffered differ at %d\n", M, N, K, sum, maxerr < 1e-4 ? 1e-4 : maxerr, differ);
  bool ok = bad == 0 && differ == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
