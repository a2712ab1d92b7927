// Cooperative groups in one program: thread_block_tile<16>, <8> and <4> reductions and scans
// (cg::reduce, cg::inclusive_scan), tile votes and meta-group ranks, labeled_partition of a warp
// by key, coalesced_threads inside a divergent branch appending by a warp-aggregated atomic, and a
// cooperative launch (cudaLaunchCooperativeKernel) whose grid.sync() phases make a global exclusive
// scan. Every result is checked against the host; prints PASS or FAIL.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

template <int W>
__global__ void tileSums(const int *in, int *sums, int *maxs, int *scan, int *votes, int n) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<W> t = cg::tiled_partition<W>(b);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(t, v, cg::plus<int>());
  int m = cg::reduce(t, v, cg::greater<int>());
  int sc = cg::inclusive_scan(t, v);
  bool anyBig = t.any(v > 900);
  bool allPos = t.all(v > 0);
  unsigned bal = t.ballot(v & 1);
  if (i < n) scan[i] = sc;
  int tile = (blockIdx.x * blockDim.x) / W + t.meta_group_rank();
  if (t.thread_rank() == 0 && i < n) {
    sums[tile] = s;
    maxs[tile] = m;
    votes[tile] = (anyBig ? 1 : 0) | (allPos ? 2 : 0) | (int)(bal << 2);
  }
}

// a warp split by key (v % 5): each group's size and each thread's rank in its group
__global__ void byKey(const int *in, int *groupSize, int *rank, int *counts, int n) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // whole warps only (n a multiple of 32)
  int key = in[i] % 5;
  cg::coalesced_group g = cg::labeled_partition(w, key);
  groupSize[i] = g.size();
  rank[i] = g.thread_rank();
  int total = cg::reduce(g, in[i], cg::plus<int>());
  if (g.thread_rank() == 0) atomicAdd(&counts[key], total);
}

// odd values appended to a list: the branch's active threads take their slots by one atomic
__global__ void appendOdd(const int *in, int *list, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 1)) {
    cg::coalesced_group a = cg::coalesced_threads();
    int base = 0;
    if (a.thread_rank() == 0) base = atomicAdd(count, (int)a.size());
    base = a.shfl(base, 0);
    list[base + a.thread_rank()] = in[i];
  }
}

// exclusive scan of n values in one cooperative launch: block partial sums, grid.sync, block 0
// scans the partials, grid.sync, every block adds its offset
__global__ void gridScan(const int *in, int *out, int *partial, int n, int chunk) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  __shared__ int warpSums[32];
  __shared__ int carry;
  int lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
  // phase 1: each block's total
  int acc = 0;
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) acc += in[i];
  int ws = cg::reduce(w, acc, cg::plus<int>());
  if (w.thread_rank() == 0) warpSums[w.meta_group_rank()] = ws;
  b.sync();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int k = 0; k < (int)w.meta_group_size(); ++k) t += warpSums[k];
    partial[blockIdx.x] = t;
  }
  grid.sync();
  // phase 2: block 0 scans the partials (exclusive)
  if (blockIdx.x == 0 && threadIdx.x < 32) {
    int run = 0;
    for (int base = 0; base < (int)gridDim.x; base += 32) {
      int k = base + threadIdx.x;
      int v = k < (int)gridDim.x ? partial[k] : 0;
      int inc = cg::inclusive_scan(w, v);
      if (k < (int)gridDim.x) partial[k] = run + inc - v;
      run += w.shfl(inc, 31);
    }
  }
  grid.sync();
  // phase 3: the block's scan in tiles of blockDim.x with a running carry
  if (threadIdx.x == 0) carry = partial[blockIdx.x];
  b.sync();
  for (int base = lo; base < hi; base += blockDim.x) {
    int i = base + threadIdx.x;
    int v = i < hi ? in[i] : 0;
    int inc = cg::inclusive_scan(w, v);
    if (w.thread_rank() == 31) warpSums[w.meta_group_rank()] = inc;
    b.sync();
    if (threadIdx.x < 32) {
      int x = threadIdx.x < w.meta_group_size() ? warpSums[threadIdx.x] : 0;
      int y = cg::inclusive_scan(w, x);
      if (threadIdx.x < w.meta_group_size()) warpSums[threadIdx.x] = y - x;
    }
    b.sync();
    int before = carry + warpSums[w.meta_group_rank()];
    if (i < hi) out[i] = before + inc - v;
    b.sync();
    if (threadIdx.x == blockDim.x - 1) carry = before + inc;
    b.sync();
  }
}

template <int W>
bool checkTiles(const std::vector<int> &h, int n, int *dIn) {
  int tiles = n / W;
  int *dS, *dM, *dSc, *dV;
  CK(cudaMalloc(&dS, tiles * 4)); CK(cudaMalloc(&dM, tiles * 4));
  CK(cudaMalloc(&dSc, n * 4)); CK(cudaMalloc(&dV, tiles * 4));
  tileSums<W><<<(n + 255) / 256, 256>>>(dIn, dS, dM, dSc, dV, n);
  CK(cudaGetLastError());
  std::vector<int> s(tiles), m(tiles), sc(n), v(tiles);
  CK(cudaMemcpy(s.data(), dS, tiles * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(m.data(), dM, tiles * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sc.data(), dSc, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(v.data(), dV, tiles * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  long long chk = 0;
  for (int t = 0; t < tiles; ++t) {
    int es = 0, em = -1, run = 0; bool any = false, all = true; unsigned bal = 0;
    for (int k = 0; k < W; ++k) {
      int x = h[t * W + k];
      es += x; em = std::max(em, x); run += x;
      any |= x > 900; all &= x > 0; bal |= (unsigned)(x & 1) << k;
      if (sc[t * W + k] != run && ok) { printf("scan %d: %d vs %d\n", t * W + k, sc[t * W + k], run); ok = false; }
    }
    int ev = (any ? 1 : 0) | (all ? 2 : 0) | (int)(bal << 2);
    // a tile's ballot holds the other tiles' lanes above its own (`lane_ballot >> first lane`):
    // only the tile's bits are checked, the whole word goes into the checksum
    int vm = (int)((((1ull << W) - 1) << 2) | 3);
    if ((s[t] != es || m[t] != em || (v[t] & vm) != ev) && ok) {
      printf("tile %d: sum %d vs %d, max %d vs %d, votes %x vs %x\n", t, s[t], es, m[t], em, v[t], ev);
      ok = false;
    }
    chk += (long long)s[t] * (t % 7 + 1) + m[t] + v[t];
  }
  printf("tile<%d>: %d tiles, checksum %lld %s\n", W, tiles, chk, ok ? "ok" : "WRONG");
  cudaFree(dS); cudaFree(dM); cudaFree(dSc); cudaFree(dV);
  return ok;
}

int main() {
  const int n = 1 << 18;
  std::vector<int> h(n);
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) { x = x * 1664525u + 1013904223u; h[i] = (x >> 8) % 1000; }
  int *dIn;
  CK(cudaMalloc(&dIn, n * 4));
  CK(cudaMemcpy(dIn, h.data(), n * 4, cudaMemcpyHostToDevice));
  bool ok = true;
  ok &= checkTiles<16>(h, n, dIn);
  ok &= checkTiles<8>(h, n, dIn);
  ok &= checkTiles<4>(h, n, dIn);

  // labeled partition
  int *dG, *dR, *dC;
  CK(cudaMalloc(&dG, n * 4)); CK(cudaMalloc(&dR, n * 4)); CK(cudaMalloc(&dC, 5 * 4));
  CK(cudaMemset(dC, 0, 5 * 4));
  byKey<<<n / 128, 128>>>(dIn, dG, dR, dC, n);
  CK(cudaGetLastError());
  std::vector<int> g(n), r(n), c(5);
  CK(cudaMemcpy(g.data(), dG, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dR, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(c.data(), dC, 5 * 4, cudaMemcpyDeviceToHost));
  {
    bool k = true; long long ec[5] = {0};
    for (int w = 0; w < n / 32; ++w) {
      int cnt[5] = {0};
      for (int l = 0; l < 32; ++l) {
        int i = w * 32 + l, key = h[i] % 5;
        if (r[i] != cnt[key]) k = false;
        cnt[key]++;
        ec[key] += h[i];
      }
      for (int l = 0; l < 32; ++l) if (g[w * 32 + l] != cnt[h[w * 32 + l] % 5]) k = false;
    }
    for (int q = 0; q < 5; ++q) if (c[q] != ec[q]) k = false;
    printf("labeled_partition: key sums %d %d %d %d %d %s\n", c[0], c[1], c[2], c[3], c[4], k ? "ok" : "WRONG");
    ok &= k;
  }

  // coalesced append
  int *dL, *dN;
  CK(cudaMalloc(&dL, n * 4)); CK(cudaMalloc(&dN, 4));
  CK(cudaMemset(dN, 0, 4));
  appendOdd<<<n / 256, 256>>>(dIn, dL, dN, n);
  CK(cudaGetLastError());
  int cnt;
  CK(cudaMemcpy(&cnt, dN, 4, cudaMemcpyDeviceToHost));
  std::vector<int> l(cnt);
  CK(cudaMemcpy(l.data(), dL, cnt * 4, cudaMemcpyDeviceToHost));
  {
    std::vector<int> e;
    for (int i = 0; i < n; ++i) if (h[i] & 1) e.push_back(h[i]);
    std::sort(e.begin(), e.end()); std::sort(l.begin(), l.end());
    bool k = e == l;
    printf("coalesced append: %d odd values %s\n", cnt, k ? "ok" : "WRONG");
    ok &= k;
  }

  // cooperative scan
  int dev = 0, coop = 0;
  CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, gridScan, 256, 0));
  const int blocks = 96;
  int *dO, *dP;
  CK(cudaMalloc(&dO, n * 4)); CK(cudaMalloc(&dP, blocks * 4));
  int chunk = (n + blocks - 1) / blocks;
  int nn = n;
  void *args[] = {&dIn, &dO, &dP, &nn, &chunk};
  CK(cudaLaunchCooperativeKernel((void *)gridScan, dim3(blocks), dim3(256), args, 0, 0));
  CK(cudaDeviceSynchronize());
  std::vector<int> o(n);
  CK(cudaMemcpy(o.data(), dO, n * 4, cudaMemcpyDeviceToHost));
  {
    bool k = true; long long run = 0;
    for (int i = 0; i < n; ++i) { if (o[i] != run) k = false; run += h[i]; }
    printf("grid scan (cooperative %d, %d blocks/SM): last %d total %lld %s\n", coop, nb, o[n - 1], run, k ? "ok" : "WRONG");
    ok &= k;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
