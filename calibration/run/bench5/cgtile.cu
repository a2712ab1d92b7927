// Cooperative groups in modern shapes: tiled_partition<16> with cg::reduce (sum, max), a stream
// compaction by cg::exclusive_scan / inclusive_scan over 32-thread tiles, dynamic tiles of 4
// (tiled_partition(block, 4)) summing through shared memory, and coalesced_threads() in divergent
// code (warp-aggregated atomics) with tile any / ballot / shfl. The host checks every result.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <vector>
#include <algorithm>
namespace cg = cooperative_groups;

__global__ void tileReduce(const int* in, int* sums, int* maxs, int n) {
  auto block = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -1000000;
  int s = cg::reduce(t16, i < n ? v : 0, cg::plus<int>());
  int m = cg::reduce(t16, v, cg::greater<int>());
  if (t16.thread_rank() == 0) { sums[i / 16] = s; maxs[i / 16] = m; }
}

// per block: keep values divisible by 3, in order, at out[block * 256 + k]; count[block] = k
__global__ void compact(const int* in, int* out, int* count, int* incl) {
  __shared__ int warpTotal[8];
  __shared__ int warpBase[8];
  auto block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  int i = blockIdx.x * 256 + threadIdx.x;
  int v = in[i];
  int keep = (v % 3 == 0) ? 1 : 0;
  int pos = cg::exclusive_scan(t32, keep);
  int run = cg::inclusive_scan(t32, v & 15, cg::plus<int>());
  incl[i] = run;
  if (t32.thread_rank() == 31) warpTotal[t32.meta_group_rank()] = pos + keep;
  block.sync();
  if (threadIdx.x < 8) {
    auto t8 = cg::tiled_partition<8>(t32);
    int tot = warpTotal[threadIdx.x];
    int b = cg::exclusive_scan(t8, tot);
    warpBase[threadIdx.x] = b;
    if (threadIdx.x == 7) count[blockIdx.x] = b + tot;
  }
  block.sync();
  if (keep) out[blockIdx.x * 256 + warpBase[t32.meta_group_rank()] + pos] = v;
}

// dynamic tiles of 4: each tile sums its 4 values through shared memory
__global__ void dynTiles(const int* in, int* out) {
  __shared__ int s[128];
  auto block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 4);
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = in[i];
  tile.sync();
  int base = threadIdx.x - tile.thread_rank();
  int sum = 0;
  for (int k = 0; k < (int)tile.size(); ++k) sum += s[base + (k + tile.thread_rank()) % 4] * (k + 1);
  tile.sync();
  out[i] = sum;
}

// divergent: only some lanes enter; they aggregate one atomic per coalesced group
__global__ void aggregate(const int* in, int* slots, int* counter, int* flags) {
  auto block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if (v % 5 < 2) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(counter, g.size());
    base = g.shfl(base, 0);
    slots[base + g.thread_rank()] = v;
  }
  bool anyNeg = t32.any(v > 990);
  unsigned odd = t32.ballot(v & 1);
  int fromNext = t32.shfl_down(v, 1);
  if (t32.thread_rank() == 0) flags[i / 32] = (anyNeg ? 1 << 16 : 0) | __popc(odd);
  if (t32.thread_rank() == 5) flags[i / 32] += fromNext << 20;
}

int main() {
  const int n = 4000, blocks = 16, N = blocks * 256;
  std::vector<int> h(N);
  unsigned x = 12345;
  for (int i = 0; i < N; ++i) { x = x * 1103515245u + 12345u; h[i] = (x >> 8) % 1000; }
  int *d_in, *d_a, *d_b, *d_c, *d_d, *d_e;
  cudaMalloc(&d_in, N * 4); cudaMalloc(&d_a, N * 4); cudaMalloc(&d_b, N * 4);
  cudaMalloc(&d_c, N * 4); cudaMalloc(&d_d, N * 4); cudaMalloc(&d_e, N * 4);
  cudaMemcpy(d_in, h.data(), N * 4, cudaMemcpyHostToDevice);
  bool ok = true;
  // 1. tile reduce
  int tiles = (n + 15) / 16;
  tileReduce<<<(n + 127) / 128, 128>>>(d_in, d_a, d_b, n);
  std::vector<int> sums(tiles), maxs(tiles);
  cudaMemcpy(sums.data(), d_a, tiles * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(maxs.data(), d_b, tiles * 4, cudaMemcpyDeviceToHost);
  long total = 0;
  for (int t = 0; t < tiles; ++t) {
    int s = 0, m = -1000000;
    for (int k = t * 16; k < t * 16 + 16 && k < n; ++k) { s += h[k]; m = std::max(m, h[k]); }
    if (s != sums[t] || m != maxs[t]) ok = false;
    total += sums[t] * (t % 7 + 1);
  }
  printf("tileReduce weighted %ld max[17] %d\n", total, maxs[17]);
  // 2. compaction
  compact<<<blocks, 256>>>(d_in, d_a, d_b, d_c);
  std::vector<int> out(N), cnt(blocks), incl(N);
  cudaMemcpy(out.data(), d_a, N * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(cnt.data(), d_b, blocks * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(incl.data(), d_c, N * 4, cudaMemcpyDeviceToHost);
  int kept = 0; long ksum = 0;
  for (int b = 0; b < blocks; ++b) {
    int k = 0;
    for (int i = b * 256; i < b * 256 + 256; ++i)
      if (h[i] % 3 == 0) { if (out[b * 256 + k] != h[i]) ok = false; ++k; }
    if (k != cnt[b]) ok = false;
    kept += k;
    for (int j = 0; j < k; ++j) ksum += out[b * 256 + j] * (j % 5);
  }
  long isum = 0;
  for (int w = 0; w < N / 32; ++w) {
    int r = 0;
    for (int l = 0; l < 32; ++l) { r += h[w * 32 + l] & 15; if (incl[w * 32 + l] != r) ok = false; isum += r; }
  }
  printf("compact kept %d weighted %ld scan %ld\n", kept, ksum, isum);
  // 3. dynamic tiles
  dynTiles<<<N / 128, 128>>>(d_in, d_a);
  cudaMemcpy(out.data(), d_a, N * 4, cudaMemcpyDeviceToHost);
  long dsum = 0;
  for (int i = 0; i < N; ++i) {
    int base = i - i % 4, r = i % 4, s = 0;
    for (int k = 0; k < 4; ++k) s += h[base + (k + r) % 4] * (k + 1);
    if (s != out[i]) ok = false;
    dsum += s;
  }
  printf("dynTiles sum %ld out[77] %d\n", dsum, out[77]);
  // 4. aggregated atomics
  cudaMemset(d_b, 0, 4);
  aggregate<<<N / 256, 256>>>(d_in, d_a, d_b, d_d);
  int c; cudaMemcpy(&c, d_b, 4, cudaMemcpyDeviceToHost);
  std::vector<int> slots(c > 0 && c <= N ? c : 0), flags(N / 32);
  cudaMemcpy(slots.data(), d_a, slots.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(flags.data(), d_d, N / 32 * 4, cudaMemcpyDeviceToHost);
  std::vector<int> want;
  for (int i = 0; i < N; ++i) if (h[i] % 5 < 2) want.push_back(h[i]);
  std::sort(slots.begin(), slots.end());
  std::sort(want.begin(), want.end());
  if (slots != want) ok = false;
  long fsum = 0;
  for (int w = 0; w < N / 32; ++w) {
    int any = 0, odd = 0;
    for (int l = 0; l < 32; ++l) { any |= h[w * 32 + l] > 990; odd += h[w * 32 + l] & 1; }
    int f = (any ? 1 << 16 : 0) | odd;
    f += h[w * 32 + 6] << 20;
    if (flags[w] != f) ok = false;
    fsum += flags[w] & 0xfffff;
  }
  printf("aggregate count %d flags %ld\n", c, fsum);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
