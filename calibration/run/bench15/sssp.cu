// Single-source shortest paths by synchronous Bellman-Ford on a weighted road-like graph (a 48x48
// grid with random weights and 300 one-way shortcuts, edges as arrays of structures): per round a
// copy kernel, then a thread an edge relaxes it from the previous round's distances by atomicMin
// and raises a flag the host reads (the round count does not depend on the order the atomics
// ran); then a thread a vertex recovers its predecessor from the incoming edges (the smallest
// tight one) and a path walk a vertex counts hops to the source (a data-dependent loop).
// Checked against the host's Dijkstra. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <queue>
#include <climits>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define INF 0x3fffffff
struct Edge { int from, to, w; };

__global__ void copyDist(const int *a, int *b, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) b[v] = a[v];
}

__global__ void relax(const Edge *e, int m, const int *dOld, int *dNew, int *changed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  Edge x = e[i];
  int du = dOld[x.from];
  if (du == INF) return;
  int nd = du + x.w;
  if (nd < dOld[x.to]) { atomicMin(&dNew[x.to], nd); *changed = 1; }
}

// in-edges in CSR by destination
__global__ void preds(const int *inPtr, const int *inFrom, const int *inW, const int *d, int n, int *pred) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int best = -1;
  if (d[v] != INF && d[v] != 0)
    for (int k = inPtr[v]; k < inPtr[v + 1]; k++) {
      int u = inFrom[k];
      if (d[u] != INF && d[u] + inW[k] == d[v] && (best < 0 || u < best)) best = u;
    }
  pred[v] = best;
}

__global__ void hops(const int *pred, int n, int *h) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int c = 0;
  for (int u = v; pred[u] >= 0 && c < n; u = pred[u]) c++;
  h[v] = c;
}

int main() {
  const int S = 48, N = S * S, SRC = 5 * S + 7;
  std::vector<Edge> edges;
  unsigned s = 99;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (int)(s >> 9); };
  for (int y = 0; y < S; y++)
    for (int x = 0; x < S; x++) {
      int v = y * S + x;
      if (x + 1 < S) { int w = 1 + rnd() % 40; edges.push_back({v, v + 1, w}); edges.push_back({v + 1, v, w + rnd() % 5}); }
      if (y + 1 < S && rnd() % 7) { int w = 1 + rnd() % 40; edges.push_back({v, v + S, w}); edges.push_back({v + S, v, w}); }
    }
  for (int k = 0; k < 300; k++) { int a = rnd() % N, b = rnd() % N; edges.push_back({a, b, 30 + rnd() % 200}); }
  int M = (int)edges.size();
  std::vector<std::vector<std::pair<int, int>>> out(N);
  for (auto &e : edges) out[e.from].push_back({e.to, e.w});
  std::vector<int> ref(N, INF);
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<std::pair<int, int>>> pq;
  ref[SRC] = 0; pq.push({0, SRC});
  while (!pq.empty()) {
    auto [d, u] = pq.top(); pq.pop();
    if (d != ref[u]) continue;
    for (auto [v, w] : out[u]) if (d + w < ref[v]) { ref[v] = d + w; pq.push({ref[v], v}); }
  }
  std::vector<int> inPtr(N + 1, 0), inFrom(M), inW(M);
  for (auto &e : edges) inPtr[e.to + 1]++;
  for (int v = 0; v < N; v++) inPtr[v + 1] += inPtr[v];
  std::vector<int> fill(inPtr.begin(), inPtr.end() - 1);
  for (auto &e : edges) { inFrom[fill[e.to]] = e.from; inW[fill[e.to]++] = e.w; }
  std::vector<int> init(N, INF); init[SRC] = 0;
  Edge *dE; int *dA, *dB, *dFlag, *dInPtr, *dInFrom, *dInW, *dPred, *dHops;
  CK(cudaMalloc(&dE, M * sizeof(Edge))); CK(cudaMalloc(&dA, N * sizeof(int))); CK(cudaMalloc(&dB, N * sizeof(int)));
  CK(cudaMalloc(&dFlag, sizeof(int))); CK(cudaMalloc(&dInPtr, (N + 1) * sizeof(int)));
  CK(cudaMalloc(&dInFrom, M * sizeof(int))); CK(cudaMalloc(&dInW, M * sizeof(int)));
  CK(cudaMalloc(&dPred, N * sizeof(int))); CK(cudaMalloc(&dHops, N * sizeof(int)));
  CK(cudaMemcpy(dE, edges.data(), M * sizeof(Edge), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dA, init.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dInPtr, inPtr.data(), (N + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dInFrom, inFrom.data(), M * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dInW, inW.data(), M * sizeof(int), cudaMemcpyHostToDevice));
  int rounds = 0, flag = 1;
  while (flag && rounds < N) {
    CK(cudaMemset(dFlag, 0, sizeof(int)));
    copyDist<<<(N + 255) / 256, 256>>>(dA, dB, N);
    relax<<<(M + 255) / 256, 256>>>(dE, M, dA, dB, dFlag);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&flag, dFlag, sizeof(int), cudaMemcpyDeviceToHost));
    std::swap(dA, dB);
    rounds++;
  }
  preds<<<(N + 127) / 128, 128>>>(dInPtr, dInFrom, dInW, dA, N, dPred);
  hops<<<(N + 127) / 128, 128>>>(dPred, N, dHops);
  CK(cudaGetLastError());
  std::vector<int> d(N), pred(N), h(N);
  CK(cudaMemcpy(d.data(), dA, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pred.data(), dPred, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h.data(), dHops, N * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true; long long total = 0; int maxHops = 0, far = 0;
  for (int v = 0; v < N; v++) {
    ok = ok && d[v] == ref[v];
    if (v != SRC && ref[v] != INF) ok = ok && pred[v] >= 0 && ref[pred[v]] < ref[v];
    total += d[v] == INF ? 0 : d[v];
    if (h[v] > maxHops) maxHops = h[v];
    if (d[v] != INF && d[v] > d[far]) far = v;
  }
  // hops by the host along the same predecessors
  for (int v = 0; v < N && ok; v++) { int c = 0; for (int u = v; pred[u] >= 0; u = pred[u]) c++; ok = h[v] == c; }
  printf("%d vertices, %d edges, %d rounds, distance sum %lld, farthest %d at %d, most hops %d\n", N, M, rounds, total, far, d[far], maxHops);
  printf("sssp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
