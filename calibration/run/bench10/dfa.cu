// A DFA string matcher (Aho-Corasick over a 4-letter alphabet): the automaton of 12 patterns built
// by the host (goto and failure links folded into a full transition table, a match count per
// state), the text's bytes mapped to letters by a 256-entry class table in __constant__ memory;
// the table copied to shared memory by each block, then a thread a chunk of 256 letters walks the
// automaton from the chunk's start less the longest pattern (the overlap warms the state up and
// its matches are not counted), data-dependent shared loads a letter; counts per thread and a
// block total by a shared atomic, then the same with a warp a chunk (lanes take interleaved
// positions, every lane re-walks a window of the longest pattern before its letter: a
// loop of fixed trip count over shared loads). The host counts every pattern occurrence.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <array>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define MAXS 64
#define CHUNK 256
#define LONGEST 9

__constant__ unsigned char cls[256];

__global__ void matchThread(const unsigned char *text, int n, const int *delta, const int *hits,
                            int ns, int *perThread, int *total) {
  __shared__ int d[MAXS * 4];
  __shared__ int h[MAXS];
  __shared__ int blockSum;
  for (int i = threadIdx.x; i < ns * 4; i += blockDim.x) d[i] = delta[i];
  for (int i = threadIdx.x; i < ns; i += blockDim.x) h[i] = hits[i];
  if (threadIdx.x == 0) blockSum = 0;
  __syncthreads();
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int start = c * CHUNK, count = 0;
  if (start < n) {
    int st = 0, end = min(start + CHUNK, n);
    for (int i = max(0, start - (LONGEST - 1)); i < end; ++i) {
      st = d[st * 4 + cls[text[i]]];
      if (i >= start) count += h[st];
    }
    perThread[c] = count;
  }
  atomicAdd(&blockSum, count);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, blockSum);
}

__global__ void matchWarp(const unsigned char *text, int n, const int *delta, const int *hits,
                          int ns, int *perWarp) {
  __shared__ int d[MAXS * 4];
  __shared__ int h[MAXS];
  for (int i = threadIdx.x; i < ns * 4; i += blockDim.x) d[i] = delta[i];
  for (int i = threadIdx.x; i < ns; i += blockDim.x) h[i] = hits[i];
  __syncthreads();
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  int start = w * CHUNK, count = 0;
  for (int i = start + lane; i < min(start + CHUNK, n); i += 32) {
    int st = 0;
    for (int j = i - (LONGEST - 1); j <= i; ++j)
      st = j < 0 ? 0 : d[st * 4 + cls[text[j]]];
    count += h[st];
  }
  for (int o = 16; o > 0; o >>= 1) count += __shfl_down_sync(0xffffffffu, count, o);
  if (lane == 0 && start < n) perWarp[w] = count;
}

int main() {
  const char *pats[12] = {"ACGT", "GATTACA", "TTT", "CAT", "ACGTACGTA", "GG", "TAGC", "CCCA",
                          "AGA", "TACG", "GTAC", "ACA"};
  std::vector<std::array<int, 4>> go;
  go.push_back({-1, -1, -1, -1});
  std::vector<int> out(1, 0), fail(1, 0);
  auto li = [](char ch) { return ch == 'A' ? 0 : ch == 'C' ? 1 : ch == 'G' ? 2 : 3; };
  for (auto p : pats) {
    int st = 0;
    for (const char *q = p; *q; ++q) {
      int a = li(*q);
      if (go[st][a] < 0) { go[st][a] = (int)go.size(); go.push_back({-1, -1, -1, -1}); out.push_back(0); fail.push_back(0); }
      st = go[st][a];
    }
    out[st] += 1;
  }
  int ns = (int)go.size();
  if (ns > MAXS) { printf("too many states %d\n", ns); return 1; }
  std::vector<int> delta(ns * 4), order(1, 0);
  for (size_t k = 0; k < order.size(); ++k) {
    int st = order[k];
    for (int a = 0; a < 4; ++a) {
      int nx = go[st][a];
      if (nx >= 0) {
        fail[nx] = st == 0 ? 0 : delta[fail[st] * 4 + a];
        out[nx] += out[fail[nx]];
        delta[st * 4 + a] = nx; order.push_back(nx);
      } else {
        delta[st * 4 + a] = st == 0 ? 0 : delta[fail[st] * 4 + a];
      }
    }
  }
  unsigned char hc[256];
  for (int i = 0; i < 256; ++i) hc[i] = (unsigned char)((i * 7 + (i >> 3)) & 3);
  const int n = 300000;
  std::vector<unsigned char> text(n);
  unsigned s = 4242u;
  for (int i = 0; i < n; ++i) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    text[i] = (unsigned char)(s >> 7);
    if (i % 5000 == 100) { const char *p = pats[(i / 5000) % 12]; for (int k = 0; p[k] && i + k < n; ++k) { int want = li(p[k]); for (int b = 0; b < 256; ++b) if (hc[(text[i + k] + b) & 255] == want) { text[i + k] = (unsigned char)((text[i + k] + b) & 255); break; } } i += 8; }
  }
  std::vector<int> letters(n);
  for (int i = 0; i < n; ++i) letters[i] = hc[text[i]];
  std::vector<int> wantAt(n);
  long long wantTotal = 0;
  for (int i = 0; i < n; ++i) {
    int c = 0;
    for (auto p : pats) {
      int L = (int)strlen(p);
      if (i - L + 1 < 0) continue;
      bool ok = true;
      for (int k = 0; k < L && ok; ++k) ok = letters[i - L + 1 + k] == li(p[k]);
      c += ok;
    }
    wantAt[i] = c; wantTotal += c;
  }
  int nc = (n + CHUNK - 1) / CHUNK;
  unsigned char *dt; int *dd, *dh, *dp, *dtot, *dw;
  CK(cudaMalloc(&dt, n)); CK(cudaMalloc(&dd, ns * 16)); CK(cudaMalloc(&dh, ns * 4));
  CK(cudaMalloc(&dp, nc * 4)); CK(cudaMalloc(&dtot, 4)); CK(cudaMalloc(&dw, nc * 4));
  CK(cudaMemcpy(dt, text.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dd, delta.data(), ns * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dh, out.data(), ns * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(cls, hc, 256));
  CK(cudaMemset(dtot, 0, 4));
  matchThread<<<(nc + 127) / 128, 128>>>(dt, n, dd, dh, ns, dp, dtot);
  matchWarp<<<(nc * 32 + 255) / 256, 256>>>(dt, n, dd, dh, ns, dw);
  CK(cudaGetLastError());
  std::vector<int> pt(nc), pw(nc); int tot;
  CK(cudaMemcpy(pt.data(), dp, nc * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pw.data(), dw, nc * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&tot, dtot, 4, cudaMemcpyDeviceToHost));
  int bad = tot != wantTotal;
  for (int c = 0; c < nc; ++c) {
    int w = 0;
    for (int i = c * CHUNK; i < std::min(n, (c + 1) * CHUNK); ++i) w += wantAt[i];
    bad += pt[c] != w; bad += pw[c] != w;
  }
  printf("dfa: %d states, %d letters, %d chunks, %d matches (host %lld)\n", ns, n, nc, tot, wantTotal);
  printf("dfa %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
