// Dense matrix products in two classic shapes: a register-tiled SGEMM (a 64x64 tile of C per
// block of 16x16 threads, each thread a 4x4 micro-tile in registers, A's tile stored transposed
// in shared memory and both tiles read as float4), and PolyBench's gemm (one thread per element
// of C, sizes that are not multiples of the block, alpha and beta). The host checks both.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define TM 64
#define TN 64
#define TK 8

__global__ void sgemmReg(const float* A, const float* B, float* C, int M, int N, int K,
                         float alpha, float beta) {
  __shared__ __align__(16) float As[TK][TM];
  __shared__ __align__(16) float Bs[TK][TN];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int row0 = blockIdx.y * TM, col0 = blockIdx.x * TN;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += TK) {
    // A: 64 rows x 8 columns, two per thread, stored transposed
#pragma unroll
    for (int r = 0; r < 2; r++) {
      int e = tid + r * 256, ar = e / TK, ac = e % TK;
      As[ac][ar] = A[(row0 + ar) * K + k0 + ac];
    }
    // B: 8 rows x 64 columns
#pragma unroll
    for (int r = 0; r < 2; r++) {
      int e = tid + r * 256, br = e / TN, bc = e % TN;
      Bs[br][bc] = B[(k0 + br) * N + col0 + bc];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TK; k++) {
      float4 a = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
      float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
      float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; i++) {
    float4* c = reinterpret_cast<float4*>(&C[(row0 + ty * 4 + i) * N + col0 + tx * 4]);
    float4 o = *c;
    o.x = alpha * acc[i][0] + beta * o.x;
    o.y = alpha * acc[i][1] + beta * o.y;
    o.z = alpha * acc[i][2] + beta * o.z;
    o.w = alpha * acc[i][3] + beta * o.w;
    *c = o;
  }
}

__global__ void gemm(const float* A, const float* B, float* C, int ni, int nj, int nk,
                     float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    float s = C[i * nj + j] * beta;
    for (int k = 0; k < nk; k++) s += alpha * A[i * nk + k] * B[k * nj + j];
    C[i * nj + j] = s;
  }
}

static unsigned lcg = 12345u;
static float rnd() { lcg = lcg * 1664525u + 1013904223u; return (float)((lcg >> 8) & 0xffff) / 65536.f - 0.5f; }

static double checksum(const std::vector<float>& v) { double s = 0; for (size_t i = 0; i < v.size(); i++) s += v[i] * (double)((i % 7) + 1); return s; }

int main() {
  int fails = 0;
  {
    const int M = 256, N = 192, K = 128;
    std::vector<float> A(M * K), B(K * N), C(M * N);
    for (auto& x : A) x = rnd();
    for (auto& x : B) x = rnd();
    for (auto& x : C) x = rnd();
    float *dA, *dB, *dC;
    cudaMalloc(&dA, A.size() * 4); cudaMalloc(&dB, B.size() * 4); cudaMalloc(&dC, C.size() * 4);
    cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice);
    sgemmReg<<<dim3(N / TN, M / TM), dim3(16, 16)>>>(dA, dB, dC, M, N, K, 1.5f, 0.25f);
    std::vector<float> R(M * N);
    cudaMemcpy(R.data(), dC, R.size() * 4, cudaMemcpyDeviceToHost);
    double err = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double s = 0;
        for (int k = 0; k < K; k++) s += (double)A[i * K + k] * B[k * N + j];
        double want = 1.5 * s + 0.25 * C[i * N + j];
        err = fmax(err, fabs(want - R[i * N + j]));
      }
    printf("sgemmReg %dx%dx%d checksum %.6e maxerr %s\n", M, N, K, checksum(R), err < 1e-3 ? "ok" : "BAD");
    fails += err >= 1e-3;
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
  }
  {
    const int NI = 150, NJ = 133, NK = 97;
    std::vector<float> A(NI * NK), B(NK * NJ), C(NI * NJ);
    for (auto& x : A) x = rnd();
    for (auto& x : B) x = rnd();
    for (auto& x : C) x = rnd();
    float *dA, *dB, *dC;
    cudaMalloc(&dA, A.size() * 4); cudaMalloc(&dB, B.size() * 4); cudaMalloc(&dC, C.size() * 4);
    cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice);
    gemm<<<dim3((NJ + 31) / 32, (NI + 7) / 8), dim3(32, 8)>>>(dA, dB, dC, NI, NJ, NK, 32412.f, 2123.f);
    std::vector<float> R(NI * NJ);
    cudaMemcpy(R.data(), dC, R.size() * 4, cudaMemcpyDeviceToHost);
    double err = 0;
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++) {
        double s = 2123.0 * C[i * NJ + j], mag = fabs(s);
        for (int k = 0; k < NK; k++) { s += 32412.0 * A[i * NK + k] * B[k * NJ + j]; mag += fabs(32412.0 * A[i * NK + k] * B[k * NJ + j]); }
        err = fmax(err, fabs(s - R[i * NJ + j]) / (1.0 + mag));
      }
    printf("gemm %dx%dx%d checksum %.6e relerr %s\n", NI, NJ, NK, checksum(R), err < 1e-4 ? "ok" : "BAD");
    fails += err >= 1e-4;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
