// Dynamic time warping a warp a pair: a 32-sample query (a lane a row) against references of 40
// to 300 samples, the cost matrix swept by anti-diagonals in registers (the cell above and the
// diagonal one from the lane below by __shfl_up_sync, the left one the lane's own), a band around
// the scaled diagonal (cells outside it infinite, an integer division a cell), lanes idle before
// and after their row's span; then the nearest reference a query by atomicMin on the distance's
// bits. Checked exactly against the host's same float operations.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int QL = 32;
constexpr float INF = 1e30f;

__global__ void dtw(const float *__restrict__ query, const float *__restrict__ ref, const int *__restrict__ start,
                    const int *__restrict__ len, const int *__restrict__ pairQ, const int *__restrict__ pairR,
                    int npairs, int band, float *__restrict__ dist, unsigned *__restrict__ best) {
  const int lane = threadIdx.x & 31;
  const int p = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (p >= npairs) return;
  const int qi = pairQ[p], ri = pairR[p];
  const float qv = query[qi * QL + lane];
  const float *r = ref + start[ri];
  const int m = len[ri];
  float cur = INF, prev = INF;
  for (int s = 0; s < m + QL - 1; ++s) {
    const float up = __shfl_up_sync(0xffffffffu, cur, 1);
    const float dg = __shfl_up_sync(0xffffffffu, prev, 1);
    const int j = s - lane;
    float v = INF;
    if (j >= 0 && j < m) {
      const int centre = lane * m / QL;
      if (abs(j - centre) <= band) {
        const float c = fabsf(qv - r[j]);
        float a = (j == 0) ? INF : cur;
        float b = (lane == 0) ? INF : up;
        float d = (lane == 0) ? (j == 0 ? 0.f : INF) : (j == 0 ? INF : dg);
        float mn = fminf(a, fminf(b, d));
        v = mn >= INF ? INF : c + mn;
      }
    }
    prev = cur;
    cur = v;
    if (lane == QL - 1 && j == m - 1) {
      dist[p] = v;
      atomicMin(&best[qi], __float_as_uint(v));
    }
  }
}

static float hostDtw(const float *q, const float *r, int m, int band) {
  std::vector<float> D((size_t)QL * m, INF);
  for (int i = 0; i < QL; ++i)
    for (int j = 0; j < m; ++j) {
      int centre = i * m / QL;
      if (abs(j - centre) > band) continue;
      float c = fabsf(q[i] - r[j]);
      float a = j == 0 ? INF : D[i * m + j - 1];
      float b = i == 0 ? INF : D[(i - 1) * m + j];
      float d = i == 0 ? (j == 0 ? 0.f : INF) : (j == 0 ? INF : D[(i - 1) * m + j - 1]);
      float mn = fminf(a, fminf(b, d));
      D[i * m + j] = mn >= INF ? INF : c + mn;
    }
  return D[(size_t)(QL - 1) * m + m - 1];
}

int main() {
  const int NQ = 32, NR = 96, band = 24;
  unsigned s = 7u;
  auto rnd = [&]() { s = s * 1103515245u + 12345u; return (s >> 9) & 0x3fff; };
  std::vector<float> query(NQ * QL);
  std::vector<int> start(NR), len(NR);
  std::vector<float> ref;
  for (int i = 0; i < NQ; ++i)
    for (int k = 0; k < QL; ++k) query[i * QL + k] = sinf(0.2f * k * (1 + i % 5)) + (rnd() % 100) / 400.f;
  for (int i = 0; i < NR; ++i) {
    start[i] = (int)ref.size();
    len[i] = 40 + rnd() % 261;
    for (int k = 0; k < len[i]; ++k) ref.push_back(sinf(0.2f * k * QL / len[i] * (1 + i % 5)) + (rnd() % 100) / 300.f);
  }
  // every query against a quarter of the references
  std::vector<int> pq, pr;
  for (int i = 0; i < NQ; ++i)
    for (int j = i % 4; j < NR; j += 4) { pq.push_back(i); pr.push_back(j); }
  const int NP = (int)pq.size();
  float *dQ, *dR, *dD; int *dS, *dL, *dPQ, *dPR; unsigned *dB;
  CK(cudaMalloc(&dQ, query.size() * 4)); CK(cudaMalloc(&dR, ref.size() * 4)); CK(cudaMalloc(&dD, NP * 4));
  CK(cudaMalloc(&dS, NR * 4)); CK(cudaMalloc(&dL, NR * 4)); CK(cudaMalloc(&dPQ, NP * 4)); CK(cudaMalloc(&dPR, NP * 4));
  CK(cudaMalloc(&dB, NQ * 4));
  CK(cudaMemcpy(dQ, query.data(), query.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dR, ref.data(), ref.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dS, start.data(), NR * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dL, len.data(), NR * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPQ, pq.data(), NP * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPR, pr.data(), NP * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int b = pass == 0 ? band : 400;   // banded, then the full matrix
    CK(cudaMemset(dB, 0x7f, NQ * 4));
    dtw<<<(NP * 32 + 127) / 128, 128>>>(dQ, dR, dS, dL, dPQ, dPR, NP, b, dD, dB);
    CK(cudaGetLastError());
    std::vector<float> D(NP);
    std::vector<unsigned> B(NQ);
    CK(cudaMemcpy(D.data(), dD, NP * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(B.data(), dB, NQ * 4, cudaMemcpyDeviceToHost));
    std::vector<float> hb(NQ, 3.0e38f);
    double sum = 0;
    int mism = 0, inf = 0;
    for (int i = 0; i < NP; ++i) {
      float h = hostDtw(&query[pq[i] * QL], &ref[start[pr[i]]], len[pr[i]], b);
      if (h != D[i]) mism++;
      if (h >= INF) inf++; else sum += h;
      hb[pq[i]] = fminf(hb[pq[i]], h);
    }
    for (int i = 0; i < NQ; ++i) {
      float g; memcpy(&g, &B[i], 4);
      if (g != hb[i]) mism++;
    }
    printf("dtw band %d: %d pairs, %d unreachable, sum %.6f, %d mismatches\n", b, NP, inf, sum, mism);
    bad += mism;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
