// Breadth-first search by frontier queues: a generated CSR graph (degrees 0 to 24, some long
// edges), levels set by atomicCAS on an unvisited sentinel, the next frontier appended by a
// global atomicAdd on its tail (a thread a frontier vertex), then the same search with a warp a
// frontier vertex (lanes stride over the edges, the warp's new vertices appended by one atomicAdd
// of a `__ballot_sync` count and `__popc` ranks). The host reads the tail after each level; the
// levels are checked against a host BFS (the queue order is free, the levels are not).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void expandThread(const int *rowp, const int *col, int *level, const int *front, int nf,
                             int *next, int *tail, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nf) return;
  int v = front[i];
  for (int e = rowp[v]; e < rowp[v + 1]; ++e) {
    int u = col[e];
    if (level[u] != -1) continue;
    if (atomicCAS(&level[u], -1, depth + 1) == -1) next[atomicAdd(tail, 1)] = u;
  }
}

__global__ void expandWarp(const int *rowp, const int *col, int *level, const int *front, int nf,
                           int *next, int *tail, int depth) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= nf) return;
  int v = front[w], b = rowp[v], e = rowp[v + 1];
  for (int base = b; base < e; base += 32) {
    int k = base + lane;
    bool mine = false; int u = 0;
    if (k < e) {
      u = col[k];
      if (level[u] == -1) mine = atomicCAS(&level[u], -1, depth + 1) == -1;
    }
    unsigned m = __ballot_sync(0xffffffffu, mine);
    int start = 0;
    if (lane == 0 && m) start = atomicAdd(tail, __popc(m));
    start = __shfl_sync(0xffffffffu, start, 0);
    if (mine) next[start + __popc(m & ((1u << lane) - 1))] = u;
  }
}

int main() {
  const int n = 20000;
  std::vector<int> rowp(n + 1), col;
  unsigned s = 12345u;
  for (int v = 0; v < n; ++v) {
    rowp[v] = (int)col.size();
    s = s * 1664525u + 1013904223u;
    int deg = (s >> 24) % 25;
    if (v % 97 == 0) deg = 0;
    for (int d = 0; d < deg; ++d) {
      s = s * 1664525u + 1013904223u;
      int u = (d & 3) ? (v + 1 + (int)((s >> 10) % 40)) % n : (int)((s >> 8) % n);
      col.push_back(u);
    }
  }
  rowp[n] = (int)col.size();
  int ne = (int)col.size();
  const int src = 1;
  std::vector<int> want(n, -1), q; want[src] = 0; q.push_back(src);
  for (size_t h = 0; h < q.size(); ++h)
    for (int e = rowp[q[h]]; e < rowp[q[h] + 1]; ++e)
      if (want[col[e]] < 0) { want[col[e]] = want[q[h]] + 1; q.push_back(col[e]); }
  int *drow, *dcol, *dlev, *dfa, *dfb, *dtail;
  CK(cudaMalloc(&drow, (n + 1) * 4)); CK(cudaMalloc(&dcol, ne * 4)); CK(cudaMalloc(&dlev, n * 4));
  CK(cudaMalloc(&dfa, n * 4)); CK(cudaMalloc(&dfb, n * 4)); CK(cudaMalloc(&dtail, 4));
  CK(cudaMemcpy(drow, rowp.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, col.data(), ne * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  for (int mode = 0; mode < 2; ++mode) {
    CK(cudaMemset(dlev, 0xff, n * 4));
    int zero = 0, source = src;
    CK(cudaMemcpy(dlev + src, &zero, 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dfa, &source, 4, cudaMemcpyHostToDevice));
    int nf = 1, depth = 0, reached = 1;
    int *fa = dfa, *fb = dfb;
    while (nf > 0) {
      CK(cudaMemset(dtail, 0, 4));
      if (mode == 0) expandThread<<<(nf + 127) / 128, 128>>>(drow, dcol, dlev, fa, nf, fb, dtail, depth);
      else expandWarp<<<(nf * 32 + 255) / 256, 256>>>(drow, dcol, dlev, fa, nf, fb, dtail, depth);
      CK(cudaGetLastError());
      CK(cudaMemcpy(&nf, dtail, 4, cudaMemcpyDeviceToHost));
      reached += nf; ++depth;
      int *t = fa; fa = fb; fb = t;
    }
    std::vector<int> lev(n);
    CK(cudaMemcpy(lev.data(), dlev, n * 4, cudaMemcpyDeviceToHost));
    int b = 0; long long sum = 0;
    for (int v = 0; v < n; ++v) { b += lev[v] != want[v]; sum += lev[v]; }
    printf("bfsq %s: %d edges, %d levels, %d reached, level sum %lld, %d bad\n",
           mode ? "warp" : "thread", ne, depth - 1, reached, sum, b);
    bad += b + (reached != (int)q.size());
  }
  printf("bfsq %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
