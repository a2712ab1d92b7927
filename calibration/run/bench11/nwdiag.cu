// Sequence alignment by wavefronts: Needleman-Wunsch over 64 pairs of length 32 with one launch
// per anti-diagonal of the score matrices (a thread a cell, the pairs along y), the first row and
// column set by an init kernel, then a traceback a thread a pair (a data-dependent walk with three
// choices a step, counting matches, mismatches and gaps); Smith-Waterman with affine gaps (Gotoh) a
// block a pair of lengths 40 to 230, a thread a query position, three rotating anti-diagonals of H
// and two of E and F in shared memory, a barrier a diagonal, the best local score by a block
// max-reduction. Scores from a 4x4 substitution matrix in `__constant__` memory. The host
// computes every matrix.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__constant__ int sub[4][4];
constexpr int L = 32, NP = 64, GAP = 2, OPEN = 4, EXT = 1, NEG = -1000000, MAXL = 230;

__global__ void nwInit(int *H) {
  int p = blockIdx.x, t = threadIdx.x;
  int *h = H + p * (L + 1) * (L + 1);
  if (t <= L) { h[t] = -GAP * t; h[t * (L + 1)] = -GAP * t; }
}

__global__ void nwDiag(const unsigned char *a, const unsigned char *b, int *H, int d) {
  int p = blockIdx.y;
  int lo = d - L > 1 ? d - L : 1, hi = d - 1 < L ? d - 1 : L;
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i > hi) return;
  int j = d - i;
  int *h = H + p * (L + 1) * (L + 1);
  int s = h[(i - 1) * (L + 1) + j - 1] + sub[a[p * L + i - 1]][b[p * L + j - 1]];
  int up = h[(i - 1) * (L + 1) + j] - GAP, left = h[i * (L + 1) + j - 1] - GAP;
  h[i * (L + 1) + j] = max(s, max(up, left));
}

__global__ void nwBack(const unsigned char *a, const unsigned char *b, const int *H, int4 *res) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= NP) return;
  const int *h = H + p * (L + 1) * (L + 1);
  int i = L, j = L, match = 0, mis = 0, gaps = 0;
  while (i > 0 || j > 0) {
    int here = h[i * (L + 1) + j];
    if (i > 0 && j > 0 && here == h[(i - 1) * (L + 1) + j - 1] + sub[a[p * L + i - 1]][b[p * L + j - 1]]) {
      if (a[p * L + i - 1] == b[p * L + j - 1]) ++match; else ++mis;
      --i; --j;
    } else if (i > 0 && here == h[(i - 1) * (L + 1) + j] - GAP) {
      ++gaps; --i;
    } else {
      ++gaps; --j;
    }
  }
  res[p] = make_int4(h[L * (L + 1) + L], match, mis, gaps);
}

__global__ void swGotoh(const unsigned char *q, const unsigned char *r, const int *off, const int *len, int *best) {
  __shared__ int Hd[3][MAXL + 1], Ed[2][MAXL + 1], Fd[2][MAXL + 1], red[256];
  int p = blockIdx.x, i = threadIdx.x;  // row i (0 is the boundary)
  int la = len[2 * p], lb = len[2 * p + 1];
  const unsigned char *qa = q + off[p], *rb = r + off[p];
  for (int k = i; k <= MAXL; k += blockDim.x) {
    Hd[0][k] = Hd[1][k] = Hd[2][k] = 0;
    Ed[0][k] = Ed[1][k] = Fd[0][k] = Fd[1][k] = NEG;
  }
  int mx = 0;
  unsigned char ai = i >= 1 && i <= la ? qa[i - 1] : 0;
  __syncthreads();
  for (int d = 2; d <= la + lb; ++d) {
    int c = d % 3, c1 = (d - 1) % 3, c2 = (d - 2) % 3, e = d & 1, e1 = (d - 1) & 1;
    int j = d - i;
    int h = 0, ev = NEG, fv = NEG;
    if (i >= 1 && i <= la && j >= 1 && j <= lb) {
      ev = max(Ed[e1][i] - EXT, Hd[c1][i] - OPEN);
      fv = max(Fd[e1][i - 1] - EXT, Hd[c1][i - 1] - OPEN);
      h = max(max(0, Hd[c2][i - 1] + sub[ai][rb[j - 1]]), max(ev, fv));
      mx = max(mx, h);
    }
    if (i <= MAXL) { Hd[c][i] = h; Ed[e][i] = ev; Fd[e][i] = fv; }
    __syncthreads();
  }
  red[i] = mx;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (i < o) red[i] = max(red[i], red[i + o]);
    __syncthreads();
  }
  if (i == 0) best[p] = red[0];
}

static unsigned rng = 31337u;
static unsigned rnd(unsigned m) { rng = rng * 22695477u + 1u; return (rng >> 10) % m; }

int main() {
  int hsub[4][4];
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) hsub[x][y] = x == y ? 3 + (x & 1) : ((x ^ y) == 2 ? 0 : -2);
  CK(cudaMemcpyToSymbol(sub, hsub, sizeof(hsub)));
  int fails = 0;
  // Needleman-Wunsch: related pairs (mutations, insertions)
  std::vector<unsigned char> a(NP * L), b(NP * L);
  for (int p = 0; p < NP; ++p)
    for (int k = 0; k < L; ++k) {
      a[p * L + k] = (unsigned char)rnd(4);
      b[p * L + k] = rnd(100) < 30 + p ? (unsigned char)rnd(4) : a[p * L + (k + p % 3) % L];
    }
  unsigned char *da, *db; int *dH; int4 *dres;
  CK(cudaMalloc(&da, NP * L)); CK(cudaMalloc(&db, NP * L));
  CK(cudaMalloc(&dH, NP * (L + 1) * (L + 1) * sizeof(int))); CK(cudaMalloc(&dres, NP * sizeof(int4)));
  CK(cudaMemcpy(da, a.data(), NP * L, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), NP * L, cudaMemcpyHostToDevice));
  nwInit<<<NP, 64>>>(dH);
  for (int d = 2; d <= 2 * L; ++d) {
    int lo = std::max(d - L, 1), hi = std::min(d - 1, L), cnt = hi - lo + 1;
    nwDiag<<<dim3((cnt + 31) / 32, NP), 32>>>(da, db, dH, d);
  }
  nwBack<<<(NP + 31) / 32, 32>>>(da, db, dH, dres);
  CK(cudaGetLastError());
  std::vector<int4> res(NP);
  CK(cudaMemcpy(res.data(), dres, NP * sizeof(int4), cudaMemcpyDeviceToHost));
  {
    int bad = 0; long long sum = 0;
    std::vector<int> h((L + 1) * (L + 1));
    for (int p = 0; p < NP; ++p) {
      for (int t = 0; t <= L; ++t) { h[t] = -GAP * t; h[t * (L + 1)] = -GAP * t; }
      for (int i = 1; i <= L; ++i)
        for (int j = 1; j <= L; ++j)
          h[i * (L + 1) + j] = std::max(h[(i - 1) * (L + 1) + j - 1] + hsub[a[p * L + i - 1]][b[p * L + j - 1]],
                                        std::max(h[(i - 1) * (L + 1) + j], h[i * (L + 1) + j - 1]) - GAP);
      int i = L, j = L, m = 0, mm = 0, g = 0;
      while (i > 0 || j > 0) {
        int here = h[i * (L + 1) + j];
        if (i > 0 && j > 0 && here == h[(i - 1) * (L + 1) + j - 1] + hsub[a[p * L + i - 1]][b[p * L + j - 1]]) {
          if (a[p * L + i - 1] == b[p * L + j - 1]) ++m; else ++mm;
          --i; --j;
        } else if (i > 0 && here == h[(i - 1) * (L + 1) + j] - GAP) { ++g; --i; }
        else { ++g; --j; }
      }
      bad += res[p].x != h[L * (L + 1) + L] || res[p].y != m || res[p].z != mm || res[p].w != g;
      sum += (long long)res[p].x * 1000000 + m * 10000 + mm * 100 + g;
    }
    printf("needleman-wunsch: %d pairs wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  // Smith-Waterman (Gotoh), pairs of different lengths
  {
    const int np = 40;
    std::vector<int> off(np), len(2 * np);
    std::vector<unsigned char> q, r;
    for (int p = 0; p < np; ++p) {
      int la = 40 + rnd(MAXL - 39), lb = 40 + rnd(MAXL - 39);
      len[2 * p] = la; len[2 * p + 1] = lb;
      off[p] = (int)q.size();
      for (int k = 0; k < MAXL; ++k) q.push_back((unsigned char)rnd(4));
      for (int k = 0; k < MAXL; ++k) r.push_back(rnd(100) < 35 ? (unsigned char)rnd(4) : q[off[p] + (k * 3 / 4 + p) % MAXL]);
    }
    unsigned char *dq, *dr; int *doff, *dlen, *dbest;
    CK(cudaMalloc(&dq, q.size())); CK(cudaMalloc(&dr, r.size()));
    CK(cudaMalloc(&doff, np * 4)); CK(cudaMalloc(&dlen, 2 * np * 4)); CK(cudaMalloc(&dbest, np * 4));
    CK(cudaMemcpy(dq, q.data(), q.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dr, r.data(), r.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(doff, off.data(), np * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dlen, len.data(), 2 * np * 4, cudaMemcpyHostToDevice));
    swGotoh<<<np, 256>>>(dq, dr, doff, dlen, dbest);
    CK(cudaGetLastError());
    std::vector<int> best(np);
    CK(cudaMemcpy(best.data(), dbest, np * 4, cudaMemcpyDeviceToHost));
    int bad = 0; long long sum = 0;
    for (int p = 0; p < np; ++p) {
      int la = len[2 * p], lb = len[2 * p + 1];
      std::vector<int> H((la + 1) * (lb + 1), 0), E((la + 1) * (lb + 1), NEG), F((la + 1) * (lb + 1), NEG);
      int mx = 0;
      for (int i = 1; i <= la; ++i)
        for (int j = 1; j <= lb; ++j) {
          int k = i * (lb + 1) + j;
          E[k] = std::max(E[k - 1] - EXT, H[k - 1] - OPEN);
          F[k] = std::max(F[k - lb - 1] - EXT, H[k - lb - 1] - OPEN);
          H[k] = std::max(std::max(0, H[k - lb - 2] + hsub[q[off[p] + i - 1]][r[off[p] + j - 1]]), std::max(E[k], F[k]));
          mx = std::max(mx, H[k]);
        }
      bad += best[p] != mx;
      sum += (long long)best[p] * (p + 1);
    }
    printf("smith-waterman: %d pairs wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  printf("nwdiag: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
