// Jones-Plassmann graph colouring, a launch a round: an uncoloured vertex whose hashed priority
// beats every uncoloured neighbour's (ties to the higher index) takes the smallest colour its
// coloured neighbours leave free (a 64-bit mask, __ffsll); colours read from one buffer and
// written to the other, the uncoloured count by a warp-aggregated atomicAdd the host reads after
// each round. The graph: 30,000 vertices, a ring, random chords and 40 hubs of 300 to 900 edges.
// Checked: the host's same rounds give the same colours, and no edge joins two equal colours.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__host__ __device__ inline unsigned prio(unsigned v) {
  v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
  return v;
}

__global__ void colourRound(const int *__restrict__ rowp, const int *__restrict__ adj, const int *__restrict__ cin,
                            int *__restrict__ cout, int n, unsigned *__restrict__ left) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool still = false;
  if (v < n) {
    int c = cin[v];
    if (c < 0) {
      const unsigned pv = prio(v);
      unsigned long long used = 0;
      bool top = true;
      for (int e = rowp[v]; e < rowp[v + 1]; ++e) {
        const int u = adj[e];
        const int cu = cin[u];
        if (cu < 0) {
          const unsigned pu = prio(u);
          if (pu > pv || (pu == pv && u > v)) { top = false; break; }
        } else if (cu < 64) {
          used |= 1ull << cu;
        }
      }
      if (top) c = __ffsll(~used) - 1; else still = true;
    }
    cout[v] = c;
  }
  const unsigned m = __ballot_sync(0xffffffffu, still);
  if (m && (threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(left, __popc(m));
}

int main() {
  const int n = 30000;
  std::vector<std::vector<int>> g(n);
  unsigned s = 424242u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  auto edge = [&](int a, int b) { if (a != b) { g[a].push_back(b); g[b].push_back(a); } };
  for (int v = 0; v < n; ++v) edge(v, (v + 1) % n);
  for (int k = 0; k < 3 * n; ++k) edge(rnd() % n, rnd() % n);
  for (int h = 0; h < 40; ++h) {
    int hub = rnd() % n, deg = 300 + rnd() % 601;
    for (int k = 0; k < deg; ++k) edge(hub, rnd() % n);
  }
  std::vector<int> rowp(n + 1, 0), adj;
  for (int v = 0; v < n; ++v) {
    std::sort(g[v].begin(), g[v].end());
    g[v].erase(std::unique(g[v].begin(), g[v].end()), g[v].end());
    rowp[v + 1] = rowp[v] + (int)g[v].size();
    adj.insert(adj.end(), g[v].begin(), g[v].end());
  }
  int *dR, *dA, *dC0, *dC1; unsigned *dLeft;
  CK(cudaMalloc(&dR, (n + 1) * 4)); CK(cudaMalloc(&dA, adj.size() * 4));
  CK(cudaMalloc(&dC0, n * 4)); CK(cudaMalloc(&dC1, n * 4)); CK(cudaMalloc(&dLeft, 4));
  CK(cudaMemcpy(dR, rowp.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dA, adj.data(), adj.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC0, 0xff, n * 4));
  std::vector<int> hc(n, -1), hn(n);
  int rounds = 0, bad = 0;
  unsigned left = n;
  while (left && rounds < 200) {
    CK(cudaMemset(dLeft, 0, 4));
    colourRound<<<(n + 255) / 256, 256>>>(dR, dA, dC0, dC1, n, dLeft);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&left, dLeft, 4, cudaMemcpyDeviceToHost));
    std::swap(dC0, dC1);
    unsigned hl = 0;
    for (int v = 0; v < n; ++v) {
      int c = hc[v];
      if (c < 0) {
        unsigned long long used = 0; bool top = true;
        for (int e = rowp[v]; e < rowp[v + 1]; ++e) {
          int u = adj[e], cu = hc[u];
          if (cu < 0) { unsigned pu = prio(u), pv = prio(v); if (pu > pv || (pu == pv && u > v)) { top = false; break; } }
          else if (cu < 64) used |= 1ull << cu;
        }
        if (top) c = __builtin_ctzll(~used); else hl++;
      }
      hn[v] = c;
    }
    hc.swap(hn);
    if (hl != left) bad++;
    rounds++;
  }
  std::vector<int> col(n);
  CK(cudaMemcpy(col.data(), dC0, n * 4, cudaMemcpyDeviceToHost));
  int maxc = 0, clash = 0;
  long long sum = 0;
  for (int v = 0; v < n; ++v) {
    if (col[v] != hc[v]) bad++;
    maxc = std::max(maxc, col[v]);
    sum += col[v];
    for (int e = rowp[v]; e < rowp[v + 1]; ++e) clash += col[adj[e]] == col[v];
  }
  bad += clash + (left != 0);
  printf("jpcolor: %d vertices, %zu arcs, %d rounds, %d colours, colour sum %lld, %d clashes\n", n, adj.size(), rounds, maxc + 1, sum, clash);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
