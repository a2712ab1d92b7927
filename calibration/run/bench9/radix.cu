// LSD radix sort of 32-bit keys with 32-bit values, 4 bits a pass (8 passes of 3 kernels): each
// block sorts its 256-key tile by four one-bit splits (a block scan of the flags from warp
// `__ballot_sync` and `__popc` with the warp totals in shared memory), counts its 16 digits and
// their starts in the tile; one block scans the digit-major count table (a Hillis-Steele scan in
// shared memory, ping-pong buffers); the scatter writes every pair to its digit's global offset.
// Stable, so the values (the original positions) are checked; keys include duplicates.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define B 256
#define RADIX 16

__device__ int blockExclusive(int f, int *warpTot, int *total) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned m = __ballot_sync(0xffffffffu, f);
  int before = __popc(m & ((1u << lane) - 1));
  if (lane == 0) warpTot[w] = __popc(m);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < B / 32; ++i) { int t = warpTot[i]; warpTot[i] = s; s += t; }
    *total = s;
  }
  __syncthreads();
  int r = warpTot[w] + before;
  __syncthreads();
  return r;
}

__global__ void localSort(unsigned *keys, unsigned *vals, int *counts, int *starts, int shift, int nblocks) {
  __shared__ unsigned k[B], v[B];
  __shared__ int warpTot[B / 32], total;
  __shared__ unsigned char dig[B];
  int t = threadIdx.x, g = blockIdx.x * B + t;
  unsigned key = keys[g], val = vals[g];
  for (int bit = 0; bit < 4; ++bit) {
    int one = (key >> (shift + bit)) & 1;
    int onesBefore = blockExclusive(one, warpTot, &total);
    int zeros = B - total;
    int pos = one ? zeros + onesBefore : t - onesBefore;
    k[pos] = key; v[pos] = val;
    __syncthreads();
    key = k[t]; val = v[t];
    __syncthreads();
  }
  keys[g] = key; vals[g] = val;
  int d = (key >> shift) & (RADIX - 1);
  dig[t] = d;
  __syncthreads();
  if (t == 0 || dig[t - 1] != d) starts[blockIdx.x * RADIX + d] = t;
  if (t == B - 1 || dig[t + 1] != d) {
    int s = t;
    while (s > 0 && dig[s - 1] == d) --s;
    counts[d * nblocks + blockIdx.x] = t - s + 1;
  }
}

// one block of 512 threads: exclusive scan of 512 counts
__global__ void scanCounts(const int *counts, int *offs, int n) {
  __shared__ int buf[2][512];
  int t = threadIdx.x, p = 0;
  buf[0][t] = (t > 0 && t <= n) ? counts[t - 1] : 0;
  __syncthreads();
  for (int o = 1; o < n; o <<= 1) {
    buf[1 - p][t] = buf[p][t] + (t >= o ? buf[p][t - o] : 0);
    p = 1 - p;
    __syncthreads();
  }
  if (t < n) offs[t] = buf[p][t];
}

__global__ void scatter(const unsigned *keys, const unsigned *vals, unsigned *ko, unsigned *vo,
                        const int *offs, const int *starts, int shift, int nblocks) {
  int t = threadIdx.x, g = blockIdx.x * B + t;
  unsigned key = keys[g];
  int d = (key >> shift) & (RADIX - 1);
  int pos = offs[d * nblocks + blockIdx.x] + t - starts[blockIdx.x * RADIX + d];
  ko[pos] = key; vo[pos] = vals[g];
}

int main() {
  const int n = 8192, nb = n / B;
  std::vector<unsigned> k(n), v(n);
  unsigned s = 12345;
  for (int i = 0; i < n; ++i) {
    s = s * 1103515245u + 12345u;
    k[i] = (i % 7 == 0) ? (s >> 20) : (s ^ (s << 7)) & 0xfff0ffffu;
    v[i] = i;
  }
  unsigned *dk, *dv, *dk2, *dv2; int *cnt, *off, *st;
  CK(cudaMalloc(&dk, n * 4)); CK(cudaMalloc(&dv, n * 4));
  CK(cudaMalloc(&dk2, n * 4)); CK(cudaMalloc(&dv2, n * 4));
  CK(cudaMalloc(&cnt, RADIX * nb * 4)); CK(cudaMalloc(&off, RADIX * nb * 4)); CK(cudaMalloc(&st, RADIX * nb * 4));
  CK(cudaMemcpy(dk, k.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, v.data(), n * 4, cudaMemcpyHostToDevice));
  for (int shift = 0; shift < 32; shift += 4) {
    CK(cudaMemset(cnt, 0, RADIX * nb * 4));
    localSort<<<nb, B>>>(dk, dv, cnt, st, shift, nb);
    scanCounts<<<1, 512>>>(cnt, off, RADIX * nb);
    scatter<<<nb, B>>>(dk, dv, dk2, dv2, off, st, shift, nb);
    std::swap(dk, dk2); std::swap(dv, dv2);
  }
  CK(cudaGetLastError());
  std::vector<unsigned> ok(n), ov(n);
  CK(cudaMemcpy(ok.data(), dk, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ov.data(), dv, n * 4, cudaMemcpyDeviceToHost));
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return k[a] < k[b]; });
  int bad = 0;
  unsigned long long cs = 0;
  for (int i = 0; i < n; ++i) {
    bad += ok[i] != k[idx[i]] || ov[i] != (unsigned)idx[i];
    cs = cs * 31 + ok[i] + ov[i];
  }
  printf("radix n=%d first %08x last %08x checksum %016llx\n", n, ok[0], ok[n - 1], cs);
  printf("radix %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
