// Two-point angular correlation: points on the unit sphere, every pair's dot product binned by a
// binary search over the bins' cosine boundaries (constant memory), counted in a per-warp
// histogram in shared memory by shared atomics, then summed into a 64-bit global histogram.
// Data-data (pairs i < j of one set: a triangular loop) and data-random (all pairs of two sets).
// The host counts the same pairs with the same float operations and checks the totals.
#include <cstdio>
#include <cmath>
#include <vector>

#define NBINS 20
#define WARPS 4
__constant__ float binb[NBINS + 1];

__device__ int findBin(float dot) {
  int lo = 0, hi = NBINS;
  while (hi > lo + 1) {
    int k = (lo + hi) >> 1;
    if (dot >= binb[k]) hi = k; else lo = k;
  }
  return lo;
}

__global__ void pairs(const float3* a, const float3* b, int na, int nb, bool self,
                      unsigned long long* hist) {
  __shared__ unsigned sh[WARPS][NBINS];
  for (int t = threadIdx.x; t < WARPS * NBINS; t += blockDim.x) (&sh[0][0])[t] = 0;
  __syncthreads();
  int w = threadIdx.x >> 5;
  int i = blockIdx.x;  // one point of a per block, its partners across the threads
  if (i < na) {
    float3 p = a[i];
    for (int j = (self ? i + 1 : 0) + threadIdx.x; j < nb; j += blockDim.x) {
      float3 q = b[j];
      float dot = p.x * q.x + p.y * q.y + p.z * q.z;
      if (dot > 1.0f) dot = 1.0f;
      if (dot >= binb[NBINS]) atomicAdd(&sh[w][findBin(dot)], 1u);
    }
  }
  __syncthreads();
  for (int t = threadIdx.x; t < NBINS; t += blockDim.x) {
    unsigned s = 0;
    for (int k = 0; k < WARPS; k++) s += sh[k][t];
    if (s) atomicAdd(&hist[t], (unsigned long long)s);
  }
}

static unsigned lcg = 4242u;
static float u01() { lcg = lcg * 1664525u + 1013904223u; return (float)(lcg >> 8) / 16777216.f; }

int main() {
  const int n = 1500;
  std::vector<float3> d(n), r(n);
  for (int k = 0; k < 2; k++) {
    std::vector<float3>& v = k ? r : d;
    for (auto& p : v) {
      float z = 2.f * u01() - 1.f, ph = 6.2831853f * u01();
      // clustered data: half the points squeezed toward one pole
      if (k == 0 && u01() < 0.5f) z = 1.f - 0.1f * u01();
      float s = sqrtf(fmaxf(0.f, 1.f - z * z));
      p = make_float3(s * cosf(ph), s * sinf(ph), z);
    }
  }
  // cosines of angles from 0.5 to ~95 degrees, spaced logarithmically, descending
  float hb[NBINS + 1];
  for (int k = 0; k <= NBINS; k++) hb[k] = (float)cos(M_PI / 180.0 * 0.5 * pow(190.0, (double)k / NBINS));
  cudaMemcpyToSymbol(binb, hb, sizeof hb);
  float3 *da, *db;
  unsigned long long* dh;
  cudaMalloc(&da, n * sizeof(float3)); cudaMalloc(&db, n * sizeof(float3));
  cudaMalloc(&dh, 2 * NBINS * 8);
  cudaMemcpy(da, d.data(), n * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(db, r.data(), n * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemset(dh, 0, 2 * NBINS * 8);
  pairs<<<n, WARPS * 32>>>(da, da, n, n, true, dh);
  pairs<<<n, WARPS * 32>>>(da, db, n, n, false, dh + NBINS);
  unsigned long long h[2 * NBINS];
  cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost);
  int fails = 0;
  for (int k = 0; k < 2; k++) {
    unsigned long long tot = 0, want = 0;
    printf("%s:", k ? "DR" : "DD");
    for (int b = 0; b < NBINS; b++) { printf(" %llu", h[k * NBINS + b]); tot += h[k * NBINS + b]; }
    for (int i = 0; i < n; i++)
      for (int j = k ? 0 : i + 1; j < n; j++) {
        const float3 p = d[i], q = k ? r[j] : d[j];
        double dot = (double)p.x * q.x + (double)p.y * q.y + (double)p.z * q.z;
        if (dot >= hb[NBINS] + 1e-6) want++;
      }
    long long diff = (long long)tot - (long long)want;
    printf(" | total %llu host %llu\n", tot, want);
    if (diff > 50 || diff < -50) fails++;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
