// Linked lists on the GPU: Wyllie's list ranking by pointer jumping over 65536 nodes in 16 lists
// (a random permutation links them, -1 ends a list): every launch each node adds its successor's
// rank and jumps to its successor's successor (ping-pong buffers, log2 rounds, the host stops when
// a launch changes nothing: a flag set by any thread); then each list's head walks its list in a
// data-dependent loop (pointer chasing, a thread a list, 16 threads working) summing values, and a
// thread a node follows at most 64 links to find its list's tail (a loop with a run-time exit).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void jump(const int *nextIn, const int *rankIn, int *nextOut, int *rankOut, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int nx = nextIn[i], r = rankIn[i];
  if (nx >= 0) {
    r += rankIn[nx];
    nx = nextIn[nx];
    *changed = 1;
  }
  nextOut[i] = nx; rankOut[i] = r;
}

__global__ void walk(const int *next, const int *heads, const int *val, long long *sums, int *lens, int nl) {
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= nl) return;
  long long s = 0; int len = 0;
  for (int v = heads[l]; v >= 0; v = next[v]) { s += val[v] * (long long)(len + 1); ++len; }
  sums[l] = s; lens[l] = len;
}

__global__ void findTail(const int *next, int *tail, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = i, k = 0;
  while (k < 64) {
    int nx = next[v];
    if (nx < 0) break;
    v = nx; ++k;
  }
  tail[i] = k == 64 ? -1 - v : v;
}

int main() {
  const int n = 65536, nl = 16;
  std::vector<int> perm(n), next(n, -1), heads(nl), val(n), rank0(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  unsigned s = 2024u;
  for (int i = n - 1; i > 0; --i) { s = s * 1664525u + 1013904223u; std::swap(perm[i], perm[(s >> 8) % (i + 1)]); }
  std::vector<int> cut(nl + 1);
  cut[0] = 0; cut[nl] = n;
  for (int l = 1; l < nl; ++l) { s = s * 1664525u + 1013904223u; cut[l] = l * (n / nl) + (int)((s >> 12) % 2001) - 1000; }
  for (int l = 0; l < nl; ++l) {
    heads[l] = perm[cut[l]];
    for (int k = cut[l]; k + 1 < cut[l + 1]; ++k) next[perm[k]] = perm[k + 1];
  }
  for (int i = 0; i < n; ++i) { val[i] = (i * 37) % 101 - 50; rank0[i] = next[i] >= 0 ? 1 : 0; }
  int *dn[2], *dr[2], *dch, *dh, *dv, *dl, *dt, *dnx; long long *ds;
  for (int k = 0; k < 2; ++k) { CK(cudaMalloc(&dn[k], n * 4)); CK(cudaMalloc(&dr[k], n * 4)); }
  CK(cudaMalloc(&dch, 4)); CK(cudaMalloc(&dh, nl * 4)); CK(cudaMalloc(&dv, n * 4));
  CK(cudaMalloc(&dl, nl * 4)); CK(cudaMalloc(&ds, nl * 8)); CK(cudaMalloc(&dt, n * 4)); CK(cudaMalloc(&dnx, n * 4));
  CK(cudaMemcpy(dn[0], next.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dnx, next.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dr[0], rank0.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dh, heads.data(), nl * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, val.data(), n * 4, cudaMemcpyHostToDevice));
  int cur = 0, rounds = 0, changed = 1;
  while (changed) {
    CK(cudaMemset(dch, 0, 4));
    jump<<<n / 256, 256>>>(dn[cur], dr[cur], dn[1 - cur], dr[1 - cur], dch, n);
    CK(cudaMemcpy(&changed, dch, 4, cudaMemcpyDeviceToHost));
    cur = 1 - cur; ++rounds;
  }
  walk<<<1, 32>>>(dnx, dh, dv, ds, dl, nl);
  findTail<<<n / 128, 128>>>(dnx, dt, n);
  CK(cudaGetLastError());
  std::vector<int> rank(n), lens(nl), tail(n); std::vector<long long> sums(nl);
  CK(cudaMemcpy(rank.data(), dr[cur], n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(lens.data(), dl, nl * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sums.data(), ds, nl * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(tail.data(), dt, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long rs = 0, ss = 0; int far = 0;
  for (int l = 0; l < nl; ++l) {
    int len = cut[l + 1] - cut[l];
    long long sm = 0;
    for (int k = cut[l]; k < cut[l + 1]; ++k) {
      int v = perm[k], want = cut[l + 1] - 1 - k;
      bad += rank[v] != want; rs += rank[v];
      sm += val[v] * (long long)(k - cut[l] + 1);
      int steps = cut[l + 1] - 1 - k;
      int wt = steps >= 64 ? -1 - perm[k + 64] : perm[cut[l + 1] - 1];
      bad += tail[v] != wt; far += steps >= 64;
    }
    bad += lens[l] != len || sums[l] != sm; ss += sums[l];
  }
  printf("listrank: %d nodes, %d lists, %d rounds, rank sum %lld, walk sum %lld, %d far from the tail\n", n, nl, rounds, rs, ss, far);
  printf("listrank %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
