// Built with -maxrregcount=32, and one kernel with __launch_bounds__(256, 4): register pressure
// beyond 32 registers makes ptxas spill to local memory (STL/LDL only in the machine code) and a
// per-thread array indexed by data lives in local memory. A 24-word mixing hash with all words
// live, a per-thread insertion sort of 24 keys through a dynamically indexed array, and a 6x6
// matrix power per thread. Checked against the host's. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

constexpr int W = 24;

__host__ __device__ inline uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

__host__ __device__ inline uint32_t mix24(uint32_t seed, int rounds) {
  uint32_t v[W];
#pragma unroll
  for (int k = 0; k < W; ++k) v[k] = seed * (2654435761u + 2u * k) + k;
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < W; ++k) v[k] += rotl(v[(k + 7) % W] ^ v[(k + 13) % W], (k % 31) + 1);
#pragma unroll
    for (int k = 0; k < W; ++k) v[k] ^= v[(k + 1) % W] * 0x9e3779b9u;
  }
  uint32_t h = 0;
#pragma unroll
  for (int k = 0; k < W; ++k) h = h * 31u + v[k];
  return h;
}

__global__ void __launch_bounds__(256, 4) hashKernel(uint32_t *out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix24((uint32_t)i, rounds);
}

__global__ void sortLocal(const uint32_t *in, uint32_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a[W];
  for (int k = 0; k < W; ++k) a[k] = in[(size_t)i * W + k];
  for (int k = 1; k < W; ++k) {          // insertion sort: data-dependent indexing
    uint32_t x = a[k]; int j = k - 1;
    while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; --j; }
    a[j + 1] = x;
  }
  uint32_t h = 0;
  for (int k = 0; k < W; ++k) { out[(size_t)i * W + k] = a[k]; h ^= a[k] * (k + 1); }
  (void)h;
}

__global__ void matPow(const float *m, float *out, int n, int power) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a[36], r[36], t[36];
#pragma unroll
  for (int k = 0; k < 36; ++k) { a[k] = m[(size_t)i * 36 + k]; r[k] = (k % 7 == 0) ? 1.0f : 0.0f; }
  for (int p = 0; p < power; ++p) {
#pragma unroll
    for (int y = 0; y < 6; ++y)
#pragma unroll
      for (int x = 0; x < 6; ++x) {
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < 6; ++k) s = fmaf(r[y * 6 + k], a[k * 6 + x], s);
        t[y * 6 + x] = s;
      }
#pragma unroll
    for (int k = 0; k < 36; ++k) r[k] = t[k];
  }
#pragma unroll
  for (int k = 0; k < 36; ++k) out[(size_t)i * 36 + k] = r[k];
}

int main() {
  const int N = 1 << 16, NS = 1 << 14, NM = 1 << 13, ROUNDS = 6, POW = 5;
  uint32_t *dH, *dIn, *dOut; float *dM, *dR;
  CK(cudaMalloc(&dH, N * 4)); CK(cudaMalloc(&dIn, (size_t)NS * W * 4)); CK(cudaMalloc(&dOut, (size_t)NS * W * 4));
  CK(cudaMalloc(&dM, (size_t)NM * 36 * 4)); CK(cudaMalloc(&dR, (size_t)NM * 36 * 4));
  std::vector<uint32_t> keys((size_t)NS * W); std::vector<float> m((size_t)NM * 36);
  uint32_t s = 99;
  for (auto &k : keys) { s = s * 1664525u + 1013904223u; k = s >> 7; }
  for (auto &x : m) { s = s * 1664525u + 1013904223u; x = ((s >> 9) & 0xff) / 256.0f - 0.5f; }
  CK(cudaMemcpy(dIn, keys.data(), keys.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dM, m.data(), m.size() * 4, cudaMemcpyHostToDevice));
  hashKernel<<<N / 256, 256>>>(dH, N, ROUNDS);
  CK(cudaGetLastError());
  sortLocal<<<NS / 128, 128>>>(dIn, dOut, NS);
  CK(cudaGetLastError());
  matPow<<<NM / 64, 64>>>(dM, dR, NM, POW);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, hashKernel));
  printf("hashKernel: %d registers, %zu bytes local\n", fa.numRegs, fa.localSizeBytes);
  CK(cudaFuncGetAttributes(&fa, matPow));
  printf("matPow: %d registers, %zu bytes local\n", fa.numRegs, fa.localSizeBytes);
  std::vector<uint32_t> h(N), sorted((size_t)NS * W); std::vector<float> r((size_t)NM * 36);
  CK(cudaMemcpy(h.data(), dH, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sorted.data(), dOut, sorted.size() * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dR, r.size() * 4, cudaMemcpyDeviceToHost));
  int bh = 0; uint32_t hx = 0;
  for (int i = 0; i < N; ++i) { bh += mix24((uint32_t)i, ROUNDS) != h[i]; hx ^= h[i]; }
  int bs = 0;
  for (int i = 0; i < NS; ++i) {
    std::vector<uint32_t> v(keys.begin() + (size_t)i * W, keys.begin() + (size_t)(i + 1) * W);
    for (int k = 1; k < W; ++k) { uint32_t x = v[k]; int j = k - 1; while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; --j; } v[j + 1] = x; }
    for (int k = 0; k < W; ++k) bs += v[k] != sorted[(size_t)i * W + k];
  }
  int bm = 0; double msum = 0;
  for (int i = 0; i < NM; ++i) {
    double a[36], rr[36], t[36];
    for (int k = 0; k < 36; ++k) { a[k] = m[(size_t)i * 36 + k]; rr[k] = (k % 7 == 0) ? 1.0 : 0.0; }
    for (int p = 0; p < POW; ++p) {
      for (int y = 0; y < 6; ++y) for (int x = 0; x < 6; ++x) { double q = 0; for (int k = 0; k < 6; ++k) q += rr[y * 6 + k] * a[k * 6 + x]; t[y * 6 + x] = q; }
      for (int k = 0; k < 36; ++k) rr[k] = t[k];
    }
    for (int k = 0; k < 36; ++k) { bm += fabs(rr[k] - r[(size_t)i * 36 + k]) > 1e-4; msum += r[(size_t)i * 36 + k]; }
  }
  printf("hash %s xor %08x\nsort %s\nmatpow %s sum %.6f\n", bh ? "WRONG" : "ok", hx, bs ? "WRONG" : "ok", bm ? "WRONG" : "ok", msum);
  bool pass = !bh && !bs && !bm;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
