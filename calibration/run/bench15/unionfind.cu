// Connected components by lock-free union-find: a thread an edge finds both roots (a walk up the
// parent array through volatile loads) and hooks the larger root under the smaller by atomicCAS,
// retrying when another thread hooked it first; then a thread a vertex compresses its path (the
// root is always the component's smallest vertex, whatever order the hooks ran in); roots are
// counted by __ballot_sync/__popc and one atomicAdd a warp, component sizes by atomicAdd on the
// root's counter, the largest by atomicMax. Checked against the host's union-find.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__device__ int findRoot(volatile int *parent, int v) {
  int p = parent[v];
  while (p != v) { v = p; p = parent[v]; }
  return v;
}

__global__ void hook(int *parent, const int2 *edges, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int u = edges[e].x, v = edges[e].y;
  while (true) {
    int ru = findRoot(parent, u), rv = findRoot(parent, v);
    if (ru == rv) break;
    int hi = max(ru, rv), lo = min(ru, rv);
    if (atomicCAS(&parent[hi], hi, lo) == hi) break;
    u = hi; v = lo;
  }
}

__global__ void compress(int *parent, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int r = findRoot(parent, v);
  parent[v] = r;
}

__global__ void census(const int *parent, int n, int *roots, int *size, int *largest) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool root = v < n && parent[v] == v;
  unsigned b = __ballot_sync(0xffffffffu, root);
  if ((threadIdx.x & 31) == 0 && b) atomicAdd(roots, __popc(b));
  if (v < n) {
    int s = atomicAdd(&size[parent[v]], 1) + 1;
    atomicMax(largest, s);
  }
}

static int hostFind(std::vector<int> &p, int v) { while (p[v] != v) v = p[v] = p[p[v]]; return v; }

int main() {
  const int N = 1 << 16, M = 36000;
  std::vector<int2> edges(M);
  unsigned s = 77;
  for (int e = 0; e < M; e++) {
    s = s * 1103515245u + 12345u; int u = (s >> 7) % N;
    s = s * 1103515245u + 12345u;
    int v = (e % 3 == 0) ? (u + 1 + (s >> 7) % 40) % N : (s >> 7) % N;  // local and random edges
    edges[e] = make_int2(u, v);
  }
  std::vector<int> hp(N);
  for (int i = 0; i < N; i++) hp[i] = i;
  for (auto &e : edges) {
    int a = hostFind(hp, e.x), b = hostFind(hp, e.y);
    if (a != b) hp[std::max(a, b)] = std::min(a, b);
  }
  std::vector<int> hsize(N, 0);
  int hroots = 0, hlargest = 0;
  for (int i = 0; i < N; i++) { hp[i] = hostFind(hp, i); hroots += hp[i] == i; }
  for (int i = 0; i < N; i++) hlargest = std::max(hlargest, ++hsize[hp[i]]);
  std::vector<int> init(N);
  for (int i = 0; i < N; i++) init[i] = i;
  int *dP, *dSize, *dCount; int2 *dE;
  CK(cudaMalloc(&dP, N * sizeof(int))); CK(cudaMalloc(&dSize, N * sizeof(int)));
  CK(cudaMalloc(&dCount, 2 * sizeof(int))); CK(cudaMalloc(&dE, M * sizeof(int2)));
  CK(cudaMemcpy(dP, init.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dE, edges.data(), M * sizeof(int2), cudaMemcpyHostToDevice));
  CK(cudaMemset(dSize, 0, N * sizeof(int))); CK(cudaMemset(dCount, 0, 2 * sizeof(int)));
  hook<<<(M + 255) / 256, 256>>>(dP, dE, M);
  CK(cudaGetLastError());
  compress<<<N / 256, 256>>>(dP, N);
  census<<<N / 256, 256>>>(dP, N, dCount, dSize, dCount + 1);
  CK(cudaGetLastError());
  std::vector<int> p(N), size(N); int count[2];
  CK(cudaMemcpy(p.data(), dP, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(size.data(), dSize, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(count, dCount, sizeof count, cudaMemcpyDeviceToHost));
  bool ok = count[0] == hroots && count[1] == hlargest;
  for (int i = 0; i < N; i++) ok = ok && p[i] == hp[i] && size[i] == hsize[i];
  printf("%d vertices, %d edges: %d components (host %d), largest %d (host %d)\n", N, M, count[0], hroots, count[1], hlargest);
  printf("unionfind: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
