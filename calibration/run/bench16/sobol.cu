// Sobol points in 8 dimensions by Gray code (direction numbers from primitive polynomials, built
// by the host, in __constant__): a thread a run of 64 consecutive points, its first point by XOR
// over the set bits of its Gray code (a loop clearing bits with __ffs), then one XOR a point
// (the direction of __ffs(i + 1)); points written dimension-major as floats. Then a quasi-Monte
// Carlo integral of prod |4x - 2| in double, a block tree in shared memory, block partials summed
// by the host in order. Checked point for point against the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>

#define D 8
#define RUN 64
__constant__ uint32_t V[D][32];

__global__ void sobolPoints(int n, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t i0 = (uint32_t)t * RUN;
  if (i0 >= (uint32_t)n) return;
  uint32_t x[D];
  uint32_t g = i0 ^ (i0 >> 1);
  for (int d = 0; d < D; d++) x[d] = 0;
  while (g) {
    int b = __ffs(g) - 1;
    for (int d = 0; d < D; d++) x[d] ^= V[d][b];
    g &= g - 1;
  }
  for (uint32_t i = i0; i < i0 + RUN && i < (uint32_t)n; i++) {
    for (int d = 0; d < D; d++) out[(size_t)d * n + i] = x[d] * (1.0f / 4294967296.0f);
    int b = __ffs(i + 1) - 1;
    for (int d = 0; d < D; d++) x[d] ^= V[d][b];
  }
}

__global__ void integrate(const float *pts, int n, double *partial) {
  __shared__ double s[256];
  double acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double f = 1.0;
    for (int d = 0; d < D; d++) f *= fabs(4.0 * pts[(size_t)d * n + i] - 2.0);
    acc += f;
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int h = 128; h > 0; h >>= 1) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 21);
  // dimension 1: v_k = 2^(31-k); others from (degree s, coefficients a, initial m)
  const int deg[D] = {0, 1, 2, 3, 3, 4, 4, 5};
  const int coef[D] = {0, 0, 1, 1, 2, 1, 4, 2};
  const int m0[D][5] = {{0}, {1}, {1, 3}, {1, 3, 1}, {1, 1, 1}, {1, 1, 3, 3}, {1, 3, 5, 13}, {1, 1, 5, 5, 17}};
  static uint32_t hv[D][32];
  for (int k = 0; k < 32; k++) hv[0][k] = 1u << (31 - k);
  for (int d = 1; d < D; d++) {
    int sd = deg[d];
    for (int k = 0; k < sd; k++) hv[d][k] = (uint32_t)m0[d][k] << (31 - k);
    for (int k = sd; k < 32; k++) {
      uint32_t v = hv[d][k - sd] ^ (hv[d][k - sd] >> sd);
      for (int j = 1; j < sd; j++)
        if ((coef[d] >> (sd - 1 - j)) & 1) v ^= hv[d][k - j];
      hv[d][k] = v;
    }
  }
  cudaMemcpyToSymbol(V, hv, sizeof hv);
  float *dp; double *dpart;
  int blocks = 264;
  cudaMalloc(&dp, (size_t)D * n * 4); cudaMalloc(&dpart, blocks * 8);
  int threads = (n + RUN - 1) / RUN;
  sobolPoints<<<(threads + 127) / 128, 128>>>(n, dp);
  integrate<<<blocks, 256>>>(dp, n, dpart);
  std::vector<float> g((size_t)D * n);
  std::vector<double> part(blocks);
  cudaMemcpy(g.data(), dp, g.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(part.data(), dpart, blocks * 8, cudaMemcpyDeviceToHost);
  long bad = 0;
  uint32_t x[D] = {0};
  double hs = 0;
  for (int i = 0; i < n; i++) {
    if (i) { int b = __builtin_ctz((unsigned)i); for (int d = 0; d < D; d++) x[d] ^= hv[d][b]; }
    double f = 1.0;
    for (int d = 0; d < D; d++) {
      float v = x[d] * (1.0f / 4294967296.0f);
      bad += g[(size_t)d * n + i] != v;
      f *= fabs(4.0 * v - 2.0);
    }
    hs += f;
  }
  double gs = 0;
  for (int b = 0; b < blocks; b++) gs += part[b];
  printf("%d points in %d dimensions: %ld coordinates differ; point 1000 = (%.6f, %.6f, %.6f)\n", n, D, bad,
         g[1000], g[(size_t)n + 1000], g[(size_t)2 * n + 1000]);
  printf("integral %.12f (host %.12f, exact 1)\n", gs / n, hs / n);
  bool ok = bad == 0 && fabs(gs - hs) <= 1e-9 * hs && fabs(gs / n - 1.0) < 0.01;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("sobol: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
