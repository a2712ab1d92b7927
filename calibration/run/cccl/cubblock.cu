// User kernels built from CUB's block- and warp-wide collectives: BlockLoad/BlockStore with the
// warp-transpose algorithms, BlockReduce (both algorithms), BlockScan (raking and warp scans),
// WarpReduce, BlockRadixSort; each result checked on the host.
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

constexpr int T = 128, I = 4, TILE = T * I;

// per tile: load (warp transpose), block sum (raking), exclusive scan, store (warp transpose)
__global__ void tile_scan(const int *in, int *out, int *sums) {
  using Load = cub::BlockLoad<int, T, I, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<int, T, I, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, T, cub::BLOCK_REDUCE_RAKING>;
  using Scan = cub::BlockScan<int, T, cub::BLOCK_SCAN_RAKING>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } tmp;
  int v[I];
  int base = blockIdx.x * TILE;
  Load(tmp.load).Load(in + base, v);
  __syncthreads();
  int total = Reduce(tmp.reduce).Sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
  __syncthreads();
  Scan(tmp.scan).ExclusiveSum(v, v);
  __syncthreads();
  Store(tmp.store).Store(out + base, v);
}

// a ragged last tile: guarded loads and stores with a default, warp-scans, block max
__global__ void ragged(const int *in, int *out, int *maxes, int n) {
  using Load = cub::BlockLoad<int, T, I, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>;
  using Store = cub::BlockStore<int, T, I, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>;
  using Reduce = cub::BlockReduce<int, T, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using Scan = cub::BlockScan<int, T, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } tmp;
  int v[I];
  int base = blockIdx.x * TILE;
  int valid = min(TILE, n - base);
  Load(tmp.load).Load(in + base, v, valid, -1);
  __syncthreads();
  int m = Reduce(tmp.reduce).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x == 0) maxes[blockIdx.x] = m;
  __syncthreads();
  Scan(tmp.scan).InclusiveSum(v, v);
  __syncthreads();
  Store(tmp.store).Store(out + base, v, valid);
}

// one warp-wide sum per 32 elements, a segmented one per 8-lane group
__global__ void warp_sums(const int *in, int *out32, int *out8, int n) {
  using W32 = cub::WarpReduce<int>;
  using W8 = cub::WarpReduce<int, 8>;
  __shared__ typename W32::TempStorage t32[T / 32];
  __shared__ typename W8::TempStorage t8[T / 8];
  int i = blockIdx.x * T + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int w = threadIdx.x / 32;
  int s = W32(t32[w]).Sum(x);
  if (threadIdx.x % 32 == 0) out32[i / 32] = s;
  int g = threadIdx.x / 8;
  int s8 = W8(t8[g]).Sum(x, min(8, max(0, n - (i - (int)threadIdx.x % 8))));
  if (threadIdx.x % 8 == 0 && i < n) out8[i / 8] = s8;
}

// sorts each tile of keys with their positions
__global__ void tile_sort(const unsigned *keys, unsigned *kout, int *vout) {
  using Sort = cub::BlockRadixSort<unsigned, T, I, int>;
  using Load = cub::BlockLoad<unsigned, T, I, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Load::TempStorage load;
  } tmp;
  unsigned k[I];
  int v[I];
  int base = blockIdx.x * TILE;
  Load(tmp.load).Load(keys + base, k);
  for (int j = 0; j < I; ++j) v[j] = base + threadIdx.x * I + j;  // blocked arrangement
  __syncthreads();
  Sort(tmp.sort).SortBlockedToStriped(k, v);
  for (int j = 0; j < I; ++j) {
    kout[base + j * T + threadIdx.x] = k[j];
    vout[base + j * T + threadIdx.x] = v[j];
  }
}

static uint32_t lcg(uint32_t &s) { s = s * 1664525u + 1013904223u; return s >> 8; }

int main() {
  const int tiles = 256, n = tiles * TILE, nr = n - 300;
  int bad = 0, b;
  uint32_t s = 99;
  std::vector<int> h(n);
  std::vector<unsigned> hk(n);
  for (int i = 0; i < n; ++i) { h[i] = (int)(lcg(s) % 2001) - 1000; hk[i] = lcg(s) % 100000; }
  int *d_in, *d_out, *d_aux, *d_v;
  unsigned *d_k, *d_ko;
  cudaMalloc(&d_in, n * 4); cudaMalloc(&d_out, n * 4); cudaMalloc(&d_aux, n * 4); cudaMalloc(&d_v, n * 4);
  cudaMalloc(&d_k, n * 4); cudaMalloc(&d_ko, n * 4);
  cudaMemcpy(d_in, h.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_k, hk.data(), n * 4, cudaMemcpyHostToDevice);
  std::vector<int> g(n), a(n);

  tile_scan<<<tiles, T>>>(d_in, d_out, d_aux);
  cudaMemcpy(g.data(), d_out, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), d_aux, tiles * 4, cudaMemcpyDeviceToHost);
  b = 0;
  for (int t = 0; t < tiles; ++t) {
    int acc = 0;
    for (int j = 0; j < TILE; ++j) { b += g[t * TILE + j] != acc; acc += h[t * TILE + j]; }
    b += a[t] != acc;
  }
  printf("tile_scan: %d wrong, sum[0] %d sum[%d] %d\n", b, a[0], tiles - 1, a[tiles - 1]);
  bad += b != 0;

  cudaMemset(d_out, 0xff, n * 4);
  ragged<<<(nr + TILE - 1) / TILE, T>>>(d_in, d_out, d_aux, nr);
  cudaMemcpy(g.data(), d_out, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), d_aux, tiles * 4, cudaMemcpyDeviceToHost);
  b = 0;
  for (int t = 0; t * TILE < nr; ++t) {
    int acc = 0, m = -1;
    for (int j = 0; j < TILE; ++j) {
      int i = t * TILE + j;
      int x = i < nr ? h[i] : -1;
      acc += x;
      m = std::max(m, x);
      b += i < nr ? g[i] != acc : g[i] != -1;
    }
    b += a[t] != m;
  }
  printf("ragged: %d wrong, max[0] %d last %d\n", b, a[0], g[nr - 1]);
  bad += b != 0;

  warp_sums<<<(nr + T - 1) / T, T>>>(d_in, d_out, d_aux, nr);
  cudaMemcpy(g.data(), d_out, n / 32 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), d_aux, n / 8 * 4, cudaMemcpyDeviceToHost);
  b = 0;
  for (int w = 0; w * 32 < nr; ++w) {
    int acc = 0;
    for (int j = w * 32; j < w * 32 + 32 && j < nr; ++j) acc += h[j];
    b += g[w] != acc;
  }
  for (int q = 0; q * 8 < nr; ++q) {
    int acc = 0;
    for (int j = q * 8; j < q * 8 + 8 && j < nr; ++j) acc += h[j];
    b += a[q] != acc;
  }
  printf("warp_sums: %d wrong, w[0] %d q[1] %d\n", b, g[0], a[1]);
  bad += b != 0;

  tile_sort<<<tiles, T>>>(d_k, d_ko, d_v);
  std::vector<unsigned> gk(n);
  cudaMemcpy(gk.data(), d_ko, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(g.data(), d_v, n * 4, cudaMemcpyDeviceToHost);
  b = 0;
  for (int t = 0; t < tiles; ++t) {
    std::vector<int> p(TILE);
    for (int j = 0; j < TILE; ++j) p[j] = t * TILE + j;
    std::stable_sort(p.begin(), p.end(), [&](int x, int y) { return hk[x] < hk[y]; });
    for (int j = 0; j < TILE; ++j) b += gk[t * TILE + j] != hk[p[j]] || g[t * TILE + j] != p[j];
  }
  printf("tile_sort: %d wrong, k[0] %u k[%d] %u\n", b, gk[0], TILE - 1, gk[TILE - 1]);
  bad += b != 0;

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); bad = 1; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
