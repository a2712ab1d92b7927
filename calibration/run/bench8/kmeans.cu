// k-means clustering (Rodinia-like shape): points transposed to feature-major order, an
// assignment kernel reading the centroids from __constant__ memory (a loop over clusters and
// features, a strict argmin, the changed memberships counted by a shared reduction and one
// integer atomicAdd a block), then per-cluster sums of the (integer-valued) features by shared
// privatised integer atomics merged into global memory; the host recomputes the centroids and
// loops until fewer than N/500 memberships change. Checked against the same iteration on the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define NPTS 4099
#define NF 6
#define K 5
#define BS 128

__constant__ float cCent[K * NF];

__global__ void transposeK(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int f = 0; f < NF; ++f) out[f * n + i] = in[i * NF + f];
}

__global__ void assignK(const float *feat, int n, int *member, int *changed) {
  __shared__ int cnt[BS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int moved = 0;
  if (i < n) {
    int best = 0;
    float bestD = 3.4e38f;
    for (int k = 0; k < K; ++k) {
      float d = 0.f;
      for (int f = 0; f < NF; ++f) {
        float t = feat[f * n + i] - cCent[k * NF + f];
        d += t * t;
      }
      if (d < bestD) { bestD = d; best = k; }
    }
    if (member[i] != best) { moved = 1; member[i] = best; }
  }
  cnt[threadIdx.x] = moved;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) cnt[threadIdx.x] += cnt[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0 && cnt[0] > 0) atomicAdd(changed, cnt[0]);
}

__global__ void sumsK(const float *feat, const int *member, int n, int *sums, int *counts) {
  __shared__ int s[K * NF];
  __shared__ int c[K];
  for (int t = threadIdx.x; t < K * NF; t += blockDim.x) s[t] = 0;
  if (threadIdx.x < K) c[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int m = member[i];
    atomicAdd(&c[m], 1);
    for (int f = 0; f < NF; ++f) atomicAdd(&s[m * NF + f], (int)feat[f * n + i]);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < K * NF; t += blockDim.x)
    if (s[t]) atomicAdd(&sums[t], s[t]);
  if (threadIdx.x < K && c[threadIdx.x]) atomicAdd(&counts[threadIdx.x], c[threadIdx.x]);
}

static unsigned rng = 12345u;
static unsigned nextr() { rng = rng * 1664525u + 1013904223u; return rng >> 8; }

static void centroids(const int *sums, const int *counts, float *cent, const float *old) {
  for (int k = 0; k < K; ++k)
    for (int f = 0; f < NF; ++f)
      cent[k * NF + f] = counts[k] ? (float)((double)sums[k * NF + f] / counts[k]) : old[k * NF + f];
}

int main() {
  float *h = (float *)malloc(sizeof(float) * NPTS * NF);
  for (int i = 0; i < NPTS; ++i) {
    int c = nextr() % K;
    for (int f = 0; f < NF; ++f) h[i * NF + f] = (float)(c * 150 + (f * 37 % 100) + nextr() % 200);
  }
  float cent[K * NF], hc[K * NF];
  for (int k = 0; k < K; ++k)
    for (int f = 0; f < NF; ++f) cent[k * NF + f] = h[(k * 7) * NF + f];
  for (int t = 0; t < K * NF; ++t) hc[t] = cent[t];
  float *dIn, *dF;
  int *dM, *dCh, *dS, *dC;
  cudaMalloc(&dIn, sizeof(float) * NPTS * NF);
  cudaMalloc(&dF, sizeof(float) * NPTS * NF);
  cudaMalloc(&dM, sizeof(int) * NPTS);
  cudaMalloc(&dCh, sizeof(int));
  cudaMalloc(&dS, sizeof(int) * K * NF);
  cudaMalloc(&dC, sizeof(int) * K);
  cudaMemcpy(dIn, h, sizeof(float) * NPTS * NF, cudaMemcpyHostToDevice);
  cudaMemset(dM, 0xff, sizeof(int) * NPTS);
  int grid = (NPTS + BS - 1) / BS;
  transposeK<<<grid, BS>>>(dIn, dF, NPTS);
  // host reference state
  int *hm = (int *)malloc(sizeof(int) * NPTS);
  for (int i = 0; i < NPTS; ++i) hm[i] = -1;
  int it = 0, changed = 0, ok = 1;
  do {
    cudaMemcpyToSymbol(cCent, cent, sizeof(cent));
    cudaMemset(dCh, 0, sizeof(int));
    assignK<<<grid, BS>>>(dF, NPTS, dM, dCh);
    cudaMemset(dS, 0, sizeof(int) * K * NF);
    cudaMemset(dC, 0, sizeof(int) * K);
    sumsK<<<grid, BS>>>(dF, dM, NPTS, dS, dC);
    int sums[K * NF], counts[K];
    cudaMemcpy(&changed, dCh, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(sums, dS, sizeof(sums), cudaMemcpyDeviceToHost);
    cudaMemcpy(counts, dC, sizeof(counts), cudaMemcpyDeviceToHost);
    // host: the same step
    int hch = 0, hs[K * NF] = {0}, hcnt[K] = {0};
    for (int i = 0; i < NPTS; ++i) {
      int best = 0;
      float bestD = 3.4e38f;
      for (int k = 0; k < K; ++k) {
        float d = 0.f;
        for (int f = 0; f < NF; ++f) {
          float t = h[i * NF + f] - hc[k * NF + f];
          d = fmaf(t, t, d);
        }
        if (d < bestD) { bestD = d; best = k; }
      }
      if (hm[i] != best) { ++hch; hm[i] = best; }
      hcnt[best]++;
      for (int f = 0; f < NF; ++f) hs[best * NF + f] += (int)h[i * NF + f];
    }
    if (hch != changed) ok = 0;
    for (int k = 0; k < K; ++k) if (hcnt[k] != counts[k]) ok = 0;
    for (int t = 0; t < K * NF; ++t) if (hs[t] != sums[t]) ok = 0;
    printf("iteration %d: %d changed, counts %d %d %d %d %d\n", it, changed, counts[0], counts[1],
           counts[2], counts[3], counts[4]);
    float nc[K * NF];
    centroids(sums, counts, nc, cent);
    for (int t = 0; t < K * NF; ++t) cent[t] = nc[t];
    centroids(hs, hcnt, nc, hc);
    for (int t = 0; t < K * NF; ++t) hc[t] = nc[t];
    ++it;
  } while (changed > NPTS / 500 && it < 20);
  double cs = 0;
  for (int t = 0; t < K * NF; ++t) cs += cent[t] * (t + 1);
  printf("centroid 0: %.4f %.4f %.4f\n", cent[0], cent[1], cent[2]);
  printf("kmeans %d iterations checksum %.6f %s\n", it, cs, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
