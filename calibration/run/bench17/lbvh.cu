// A linear BVH over points on a 1024^3 integer lattice: 30-bit Morton codes by bit spreading,
// sorted on the host as 64-bit keys (code << 32 | index, so keys are distinct); the radix tree
// built a thread an internal node (direction by the common-prefix lengths of the neighbours,
// __clzll of key XORs, an exponential then a binary search for the range's end, another for the
// split); boxes bottom-up, a thread a leaf, by a visit counter (atomicAdd: the first child to
// arrive leaves, the second merges both boxes, read through __ldcg after __threadfence, and goes
// on up); then radius queries by a stack in a local array with box pruning, against brute force.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

struct Box { float lo[3], hi[3]; };

__device__ unsigned spread(unsigned v) {
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

__global__ void morton(const float* p, unsigned long long* keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned c = (spread((unsigned)p[3 * i]) << 2) | (spread((unsigned)p[3 * i + 1]) << 1) | spread((unsigned)p[3 * i + 2]);
  keys[i] = ((unsigned long long)c << 32) | (unsigned)i;
}

__device__ __forceinline__ int delta(const unsigned long long* k, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  return __clzll(k[i] ^ k[j]);
}

// internal nodes 0..n-2, leaves n-1..2n-2 (leaf of sorted position s is n-1+s)
__global__ void buildTree(const unsigned long long* __restrict__ k, int* left, int* right, int* parent, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1) return;
  int d = delta(k, n, i, i + 1) - delta(k, n, i, i - 1) > 0 ? 1 : -1;
  int dmin = delta(k, n, i, i - d);
  int lmax = 2;
  while (delta(k, n, i, i + lmax * d) > dmin) lmax *= 2;
  int l = 0;
  for (int t = lmax / 2; t >= 1; t /= 2)
    if (delta(k, n, i, i + (l + t) * d) > dmin) l += t;
  int j = i + l * d;
  int dnode = delta(k, n, i, j);
  int s = 0, t = l;
  do {
    t = (t + 1) >> 1;
    if (delta(k, n, i, i + (s + t) * d) > dnode) s += t;
  } while (t > 1);
  int gamma = i + s * d + min(d, 0);
  int lc = min(i, j) == gamma ? n - 1 + gamma : gamma;
  int rc = max(i, j) == gamma + 1 ? n - 1 + gamma + 1 : gamma + 1;
  left[i] = lc; right[i] = rc;
  parent[lc] = i; parent[rc] = i;
}

__global__ void boxes(const float* p, const unsigned long long* k, const int* left, const int* right,
                      const int* parent, unsigned* visits, Box* box, int n) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int leaf = n - 1 + s, pt = (int)(unsigned)k[s];
  Box b;
  for (int a = 0; a < 3; ++a) b.lo[a] = b.hi[a] = p[3 * pt + a];
  box[leaf] = b;
  int node = parent[leaf];
  while (true) {
    __threadfence();
    if (atomicAdd(&visits[node], 1u) == 0) return;
    __threadfence();
    const float* L = reinterpret_cast<const float*>(&box[left[node]]);
    const float* R = reinterpret_cast<const float*>(&box[right[node]]);
    Box m;
    for (int a = 0; a < 3; ++a) {
      m.lo[a] = fminf(__ldcg(L + a), __ldcg(R + a));
      m.hi[a] = fmaxf(__ldcg(L + 3 + a), __ldcg(R + 3 + a));
    }
    box[node] = m;
    if (node == 0) return;
    node = parent[node];
  }
}

__global__ void query(const float* q, const float* p, const unsigned long long* k, const int* left,
                      const int* right, const Box* box, int* count, int* visited, int nq, int n, float r2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  float x = q[3 * i], y = q[3 * i + 1], z = q[3 * i + 2];
  int stack[96], top = 0, found = 0, seen = 0;
  stack[top++] = 0;
  while (top > 0) {
    int node = stack[--top];
    ++seen;
    const Box b = box[node];
    float dx = fmaxf(fmaxf(b.lo[0] - x, x - b.hi[0]), 0.f);
    float dy = fmaxf(fmaxf(b.lo[1] - y, y - b.hi[1]), 0.f);
    float dz = fmaxf(fmaxf(b.lo[2] - z, z - b.hi[2]), 0.f);
    if (dx * dx + dy * dy + dz * dz > r2) continue;
    if (node >= n - 1) {
      ++found;
    } else {
      stack[top++] = right[node];
      stack[top++] = left[node];
    }
  }
  count[i] = found;
  visited[i] = seen;
}

int main() {
  const int n = 1 << 17, nq = 4096;
  const float r2 = 32.f * 32.f;
  std::vector<float> p(3 * n), q(3 * nq);
  unsigned s = 7u;
  auto rnd = [&]() { s = s * 1103515245u + 12345u; return (s >> 8) & 1023u; };
  for (int i = 0; i < n; ++i) {  // clustered: a quarter of the points in a 128^3 corner
    unsigned m = (i & 3) == 0 ? 1023 : 127;
    for (int a = 0; a < 3; ++a) p[3 * i + a] = (float)(rnd() & m);
  }
  for (int i = 0; i < 3 * nq; ++i) q[i] = (float)(rnd() & ((i / 3) & 1 ? 1023 : 255));
  float *dp, *dq; unsigned long long* dk; int *dl, *dr, *dpar, *dc, *dv; unsigned* dvis; Box* db;
  CK(cudaMalloc(&dp, 12 * n)); CK(cudaMalloc(&dq, 12 * nq)); CK(cudaMalloc(&dk, 8 * n));
  CK(cudaMalloc(&dl, 4 * n)); CK(cudaMalloc(&dr, 4 * n)); CK(cudaMalloc(&dpar, 8 * n));
  CK(cudaMalloc(&dvis, 4 * n)); CK(cudaMalloc(&db, sizeof(Box) * 2 * n)); CK(cudaMalloc(&dc, 4 * nq)); CK(cudaMalloc(&dv, 4 * nq));
  CK(cudaMemcpy(dp, p.data(), 12 * n, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dq, q.data(), 12 * nq, cudaMemcpyHostToDevice));
  morton<<<(n + 255) / 256, 256>>>(dp, dk, n);
  std::vector<unsigned long long> keys(n);
  CK(cudaMemcpy(keys.data(), dk, 8 * n, cudaMemcpyDeviceToHost));
  std::sort(keys.begin(), keys.end());
  CK(cudaMemcpy(dk, keys.data(), 8 * n, cudaMemcpyHostToDevice));
  CK(cudaMemset(dvis, 0, 4 * n)); CK(cudaMemset(dpar, 0xff, 8 * n));
  buildTree<<<(n - 1 + 127) / 128, 128>>>(dk, dl, dr, dpar, n);
  boxes<<<(n + 127) / 128, 128>>>(dp, dk, dl, dr, dpar, dvis, db, n);
  query<<<(nq + 63) / 64, 64>>>(dq, dp, dk, dl, dr, db, dc, dv, nq, n, r2);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<int> cnt(nq), vis(nq), par(2 * n);
  std::vector<unsigned> visits(n);
  std::vector<Box> hb(2 * n);
  CK(cudaMemcpy(cnt.data(), dc, 4 * nq, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(vis.data(), dv, 4 * nq, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(par.data(), dpar, 8 * n, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(visits.data(), dvis, 4 * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hb.data(), db, sizeof(Box) * 2 * n, cudaMemcpyDeviceToHost));
  int bad = 0;
  // every node but the root has a parent, every internal node was visited twice
  for (int v = 1; v < 2 * n - 1; ++v) if (par[v] < 0 || par[v] >= n - 1) ++bad;
  for (int v = 0; v < n - 1; ++v) if (visits[v] != 2) ++bad;
  float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
  for (int i = 0; i < n; ++i) for (int a = 0; a < 3; ++a) { lo[a] = std::min(lo[a], p[3 * i + a]); hi[a] = std::max(hi[a], p[3 * i + a]); }
  for (int a = 0; a < 3; ++a) if (hb[0].lo[a] != lo[a] || hb[0].hi[a] != hi[a]) ++bad;
  long long total = 0, seen = 0;
  for (int i = 0; i < nq; ++i) {
    int c = 0;
    for (int j = 0; j < n; ++j) {
      float dx = p[3 * j] - q[3 * i], dy = p[3 * j + 1] - q[3 * i + 1], dz = p[3 * j + 2] - q[3 * i + 2];
      c += dx * dx + dy * dy + dz * dz <= r2;
    }
    if (c != cnt[i]) ++bad;
    total += cnt[i]; seen += vis[i];
  }
  int depth = 0;
  for (int v = n - 1; v < 2 * n - 1; ++v) { int d = 0; for (int u = v; u > 0 && d < 1000; u = par[u]) ++d; depth = std::max(depth, d); }
  printf("lbvh: %d points, %d queries, %lld hits, %lld nodes visited, depth %d, wrong %d\n", n, nq, total, seen, depth, bad);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
