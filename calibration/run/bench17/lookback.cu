// A single-pass scan by decoupled look-back: each block takes its tile by a ticket (atomicAdd),
// scans 2,048 items (8 a thread, warp scans by __shfl_up_sync, warp totals in shared memory),
// publishes its aggregate as a 64-bit word (status << 32 | value) by atomicExch, then warp 0 looks
// back over 32 predecessors at a time through volatile loads, spinning while any is unpublished
// (__any_sync), stopping at the nearest inclusive prefix (__ballot_sync, __ffs), summing the window
// by __reduce_add_sync; then it publishes its inclusive prefix. Run as an inclusive sum of small
// integers, then as a stream compaction (keep the values divisible by 3, in order).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int THREADS = 256, ITEMS = 8, TILE = THREADS * ITEMS;
#define AGG (1ull << 32)
#define INCL (2ull << 32)

__global__ void scanTiles(const int* __restrict__ in, int* __restrict__ out, unsigned long long* status,
                          unsigned* ticket, int n, int compact, int* count) {
  __shared__ int tileId, warpTot[THREADS / 32], excl;
  if (threadIdx.x == 0) tileId = atomicAdd(ticket, 1u);
  __syncthreads();
  int t = tileId, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int base = t * TILE + threadIdx.x * ITEMS;
  int v[ITEMS], keep[ITEMS], run = 0;
  for (int k = 0; k < ITEMS; ++k) {
    int i = base + k;
    v[k] = i < n ? in[i] : 0;
    keep[k] = compact ? (i < n && v[k] % 3 == 0) : v[k];
    run += keep[k];
  }
  int x = run;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warpTot[warp] = x;
  __syncthreads();
  int before = 0, total = 0;
  for (int w = 0; w < THREADS / 32; ++w) {
    if (w < warp) before += warpTot[w];
    total += warpTot[w];
  }
  int mine = before + x - run;  // exclusive within the tile
  if (warp == 0) {
    int prefix = 0;
    if (t == 0) {
      if (lane == 0) atomicExch(&status[0], INCL | (unsigned)total);
    } else {
      if (lane == 0) atomicExch(&status[t], AGG | (unsigned)total);
      volatile unsigned long long* vs = status;
      int end = t - 1;  // the window's last predecessor
      while (true) {
        int p = end - lane;
        unsigned long long s = p >= 0 ? vs[p] : INCL;
        while (__any_sync(0xffffffffu, (s >> 32) == 0)) s = p >= 0 ? vs[p] : INCL;
        unsigned incl = __ballot_sync(0xffffffffu, (s >> 32) == 2);
        int stop = incl ? __ffs(incl) - 1 : 31;
        int val = lane <= stop ? (int)(unsigned)s : 0;
        prefix += __reduce_add_sync(0xffffffffu, val);
        if (incl) break;
        end -= 32;
      }
      if (lane == 0) atomicExch(&status[t], INCL | (unsigned)(prefix + total));
    }
    if (lane == 0) excl = prefix;
  }
  __syncthreads();
  int pos = excl + mine;
  for (int k = 0; k < ITEMS; ++k) {
    int i = base + k;
    if (compact) {
      if (keep[k]) out[pos] = v[k];
      pos += keep[k];
    } else if (i < n) {
      pos += v[k];
      out[i] = pos;
    }
  }
  if (compact && t == gridDim.x - 1 && threadIdx.x == THREADS - 1) *count = pos;
}

int main() {
  const int n = (1 << 25) + 777, tiles = (n + TILE - 1) / TILE;
  int* h = (int*)malloc(n * 4);
  unsigned s = 99u;
  for (int i = 0; i < n; ++i) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; h[i] = s % 7; }
  int *din, *dout, *dcount; unsigned long long* dst; unsigned* dticket;
  CK(cudaMalloc(&din, n * 4)); CK(cudaMalloc(&dout, n * 4)); CK(cudaMalloc(&dcount, 4));
  CK(cudaMalloc(&dst, tiles * 8)); CK(cudaMalloc(&dticket, 4));
  CK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
  int* got = (int*)malloc(n * 4);
  bool ok = true;
  for (int compact = 0; compact < 2; ++compact) {
    CK(cudaMemset(dst, 0, tiles * 8)); CK(cudaMemset(dticket, 0, 4)); CK(cudaMemset(dout, 0xff, n * 4));
    scanTiles<<<tiles, THREADS>>>(din, dout, dst, dticket, n, compact, dcount);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got, dout, n * 4, cudaMemcpyDeviceToHost));
    int cnt = 0; CK(cudaMemcpy(&cnt, dcount, 4, cudaMemcpyDeviceToHost));
    long long acc = 0; int bad = 0, m = 0; unsigned hash = 2166136261u;
    for (int i = 0; i < n; ++i) {
      if (!compact) { acc += h[i]; if (got[i] != acc) ++bad; hash = (hash ^ (unsigned)got[i]) * 16777619u; }
      else if (h[i] % 3 == 0) { if (got[m] != h[i]) ++bad; hash = (hash ^ (unsigned)(i * 7 + got[m])) * 16777619u; ++m; }
    }
    if (compact && cnt != m) ++bad;
    if (!compact) printf("lookback scan: %d items in %d tiles, total %d, hash %08x, wrong %d\n", n, tiles, got[n - 1], hash, bad);
    else printf("lookback compact: kept %d (host %d), hash %08x, wrong %d\n", cnt, m, hash, bad);
    ok = ok && bad == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
