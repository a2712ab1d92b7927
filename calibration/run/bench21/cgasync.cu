// Cooperative groups on warps and tiles: each warp stages its rows into shared memory with
// cg::memcpy_async on its thread_block_tile<32>, two rows in flight (cg::wait_prior<1>), then
// tiles of 8 take cg::inclusive_scan and cg::exclusive_scan (plus, bit_xor) and cg::reduce
// (greater, less); lanes grouped by key with cg::labeled_partition reduce their group and the
// odd ones by cg::binary_partition count themselves. Checked against the host.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;

constexpr int ROW = 128;  // ints a row
constexpr int WARPS = 4;

// out per row: [0..ROW) inclusive prefix sums within tiles of 8, then per row the tile-8 xor
// exclusive scan's last, the max, the min, the labeled sum and the odd count folded into stats
__global__ void rows(const int* in, int* scan, int* stats, int nrows_per_warp) {
  __shared__ alignas(16) int buf[WARPS][2][ROW];
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto t8 = cg::tiled_partition<8>(warp);
  int w = warp.meta_group_rank();
  int row0 = (blockIdx.x * WARPS + w) * nrows_per_warp;
  cg::memcpy_async(warp, buf[w][0], in + (size_t)row0 * ROW, sizeof(int) * ROW);
  for (int r = 0; r < nrows_per_warp; ++r) {
    int cur = r & 1;
    if (r + 1 < nrows_per_warp) {
      cg::memcpy_async(warp, buf[w][cur ^ 1], in + (size_t)(row0 + r + 1) * ROW, sizeof(int) * ROW);
      cg::wait_prior<1>(warp);
    } else {
      cg::wait(warp);
    }
    int mx = -0x7fffffff, mn = 0x7fffffff, xr = 0, lab = 0, odd = 0;
    for (int k = 0; k < ROW / 32; ++k) {
      int v = buf[w][cur][k * 32 + warp.thread_rank()];
      int inc = cg::inclusive_scan(t8, v);
      scan[(size_t)(row0 + r) * ROW + k * 32 + warp.thread_rank()] = inc;
      int ex = cg::exclusive_scan(t8, v & 0xff, cg::bit_xor<int>());
      if (t8.thread_rank() == 7) xr ^= ex ^ (v & 0xff);
      mx = max(mx, cg::reduce(t8, v, cg::greater<int>()));
      mn = min(mn, cg::reduce(t8, v, cg::less<int>()));
      int key = (v >> 4) & 3;
      auto grp = cg::labeled_partition(warp, key);
      int gs = cg::reduce(grp, v & 0xfff, cg::plus<int>());
      if (grp.thread_rank() == 0) lab += gs * (key + 1);
      auto oe = cg::binary_partition(warp, v & 1);
      if (v & 1) odd += (oe.thread_rank() == 0) ? (int)oe.size() : 0;
    }
    lab = cg::reduce(warp, lab, cg::plus<int>());
    odd = cg::reduce(warp, odd, cg::plus<int>());
    xr = cg::reduce(warp, xr, cg::bit_xor<int>());
    mx = cg::reduce(warp, mx, cg::greater<int>());
    mn = cg::reduce(warp, mn, cg::less<int>());
    if (warp.thread_rank() == 0) {
      int* st = stats + (size_t)(row0 + r) * 5;
      st[0] = xr; st[1] = mx; st[2] = mn; st[3] = lab; st[4] = odd;
    }
    warp.sync();  // the buffer is refilled two rows on
  }
}

int main() {
  const int B = 144, RPW = 20;
  const int NR = B * WARPS * RPW;
  std::vector<int> in((size_t)NR * ROW);
  unsigned s = 31337;
  for (auto& v : in) { s = s * 1664525u + 1013904223u; v = (int)(s >> 12) - (1 << 19); }
  int *din, *dscan, *dst;
  cudaMalloc(&din, in.size() * 4); cudaMalloc(&dscan, in.size() * 4); cudaMalloc(&dst, NR * 5 * 4);
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  rows<<<B, WARPS * 32>>>(din, dscan, dst, RPW);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<int> sc(in.size()), st(NR * 5);
  cudaMemcpy(sc.data(), dscan, in.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(st.data(), dst, NR * 5 * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned hash = 0;
  long long lsum = 0, osum = 0;
  for (int r = 0; r < NR; ++r) {
    const int* v = &in[(size_t)r * ROW];
    int mx = -0x7fffffff, mn = 0x7fffffff, xr = 0, lab = 0, odd = 0;
    for (int i = 0; i < ROW; i += 8) {
      int acc = 0;
      for (int j = 0; j < 8; ++j) {
        acc += v[i + j];
        if (sc[(size_t)r * ROW + i + j] != acc) ++bad;
        xr ^= v[i + j] & 0xff;
        mx = mx > v[i + j] ? mx : v[i + j];
        mn = mn < v[i + j] ? mn : v[i + j];
      }
    }
    for (int k = 0; k < ROW / 32; ++k) {
      int g[4] = {0, 0, 0, 0}, n[4] = {0, 0, 0, 0};
      for (int l = 0; l < 32; ++l) {
        int x = v[k * 32 + l];
        g[(x >> 4) & 3] += x & 0xfff; n[(x >> 4) & 3]++;
        if (x & 1) ++odd;
      }
      for (int q = 0; q < 4; ++q) if (n[q]) lab += g[q] * (q + 1);
    }
    const int* o = &st[(size_t)r * 5];
    for (int f = 0; f < 5; ++f) {
      int want[5] = {xr, mx, mn, lab, odd};
      if (o[f] != want[f]) { ++bad; if (bad < 4) printf("row %d field %d: %d, want %d\n", r, f, o[f], want[f]); }
    }
    hash = hash * 31u + (unsigned)o[0] + (unsigned)o[3] * 7u;
    lsum += o[3]; osum += o[4];
  }
  for (size_t i = 0; i < sc.size(); i += 97) hash = hash * 131u + (unsigned)sc[i];
  printf("rows: %d rows labeled sum %lld odd %lld hash %08x\n", NR, lsum, osum, hash);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
