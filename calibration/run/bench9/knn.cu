// k nearest neighbours (k = 8) of each query among reference points in 4 dimensions: a thread a
// query keeps its sorted best list in a local array and inserts by shifting from the back (a loop
// with a run-time bound, ties to the smaller index), the references read through `__ldg` in tiles;
// a second kernel keeps the list in registers with a fully unrolled compare-and-swap insertion
// (ordered by distance, then index);
// a third votes the majority class of the neighbours (a small histogram in a local array).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define K 8
#define D 4

__global__ void knnLocal(const float *__restrict__ ref, int nr, const float *__restrict__ q, int nq, int *idx, float *dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  float bd[K]; int bi[K];
  for (int k = 0; k < K; ++k) { bd[k] = 3.0e38f; bi[k] = -1; }
  float x0 = q[i * D], x1 = q[i * D + 1], x2 = q[i * D + 2], x3 = q[i * D + 3];
  for (int j = 0; j < nr; ++j) {
    float d0 = __ldg(&ref[j * D]) - x0, d1 = __ldg(&ref[j * D + 1]) - x1;
    float d2 = __ldg(&ref[j * D + 2]) - x2, d3 = __ldg(&ref[j * D + 3]) - x3;
    float d = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
    if (d >= bd[K - 1]) continue;
    int p = K - 1;
    while (p > 0 && bd[p - 1] > d) { bd[p] = bd[p - 1]; bi[p] = bi[p - 1]; --p; }
    bd[p] = d; bi[p] = j;
  }
  for (int k = 0; k < K; ++k) { idx[i * K + k] = bi[k]; dist[i * K + k] = bd[k]; }
}

__global__ void knnRegs(const float *__restrict__ ref, int nr, const float *__restrict__ q, int nq, int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  float bd[K]; int bi[K];
#pragma unroll
  for (int k = 0; k < K; ++k) { bd[k] = 3.0e38f; bi[k] = -1; }
  float x0 = q[i * D], x1 = q[i * D + 1], x2 = q[i * D + 2], x3 = q[i * D + 3];
  for (int j = 0; j < nr; ++j) {
    float4 r = __ldg(reinterpret_cast<const float4 *>(ref) + j);
    float d0 = r.x - x0, d1 = r.y - x1, d2 = r.z - x2, d3 = r.w - x3;
    float d = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
    int c = j;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (d < bd[k] || (d == bd[k] && c < bi[k])) { float t = bd[k]; bd[k] = d; d = t; int u = bi[k]; bi[k] = c; c = u; }
    }
  }
#pragma unroll
  for (int k = 0; k < K; ++k) idx[i * K + k] = bi[k];
}

__global__ void vote(const int *idx, const unsigned char *cls, int nq, int ncls, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  int h[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < K; ++k) h[cls[idx[i * K + k]]]++;
  int best = 0;
  for (int c = 1; c < ncls; ++c) if (h[c] > h[best]) best = c;
  out[i] = (unsigned char)best;
}

int main() {
  const int nr = 1500, nq = 300, ncls = 6;
  std::vector<float> ref(nr * D), q(nq * D);
  std::vector<unsigned char> cls(nr);
  unsigned s = 1234;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (float)((s >> 8) % 256) / 16.f; };
  for (int j = 0; j < nr; ++j) { for (int d = 0; d < D; ++d) ref[j * D + d] = rnd(); cls[j] = (unsigned char)((int)(ref[j * D] / 3.f) % ncls); }
  for (int i = 0; i < nq; ++i) for (int d = 0; d < D; ++d) q[i * D + d] = rnd();
  float *dr, *dq, *dd; int *di, *di2; unsigned char *dc, *dout;
  CK(cudaMalloc(&dr, nr * D * 4)); CK(cudaMalloc(&dq, nq * D * 4)); CK(cudaMalloc(&dd, nq * K * 4));
  CK(cudaMalloc(&di, nq * K * 4)); CK(cudaMalloc(&di2, nq * K * 4)); CK(cudaMalloc(&dc, nr)); CK(cudaMalloc(&dout, nq));
  CK(cudaMemcpy(dr, ref.data(), nr * D * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dq, q.data(), nq * D * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, cls.data(), nr, cudaMemcpyHostToDevice));
  knnLocal<<<(nq + 63) / 64, 64>>>(dr, nr, dq, nq, di, dd);
  knnRegs<<<(nq + 95) / 96, 96>>>(dr, nr, dq, nq, di2);
  vote<<<(nq + 127) / 128, 128>>>(di, dc, nq, ncls, dout);
  CK(cudaGetLastError());
  std::vector<int> gi(nq * K), gi2(nq * K); std::vector<unsigned char> out(nq);
  CK(cudaMemcpy(gi.data(), di, nq * K * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gi2.data(), di2, nq * K * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(out.data(), dout, nq, cudaMemcpyDeviceToHost));
  int bad = 0; long long cs = 0; int hist[6] = {0};
  for (int i = 0; i < nq; ++i) {
    std::vector<std::pair<float, int>> all(nr);
    for (int j = 0; j < nr; ++j) {
      float d0 = ref[j * D] - q[i * D], d1 = ref[j * D + 1] - q[i * D + 1], d2 = ref[j * D + 2] - q[i * D + 2], d3 = ref[j * D + 3] - q[i * D + 3];
      all[j] = {d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3, j};
    }
    std::stable_sort(all.begin(), all.end(), [](const std::pair<float, int> &a, const std::pair<float, int> &b) { return a.first < b.first; });
    int h[6] = {0};
    for (int k = 0; k < K; ++k) {
      if (gi[i * K + k] != all[k].second || gi2[i * K + k] != all[k].second) {
        if (bad < 4) printf("query %d rank %d: local %d regs %d host %d (%g)\n", i, k, gi[i * K + k], gi2[i * K + k], all[k].second, all[k].first);
        ++bad;
      }
      h[cls[all[k].second]]++;
      cs += (long long)gi[i * K + k] * (k + 1);
    }
    int best = 0; for (int c = 1; c < ncls; ++c) if (h[c] > h[best]) best = c;
    bad += out[i] != best; hist[out[i]]++;
  }
  printf("knn %d queries of %d points: index checksum %lld, votes %d %d %d %d %d %d\n", nq, nr, cs, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5]);
  printf("knn %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
