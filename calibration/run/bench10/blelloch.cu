// Work-efficient (Blelloch) exclusive scans: a block of 256 threads scans 512 ints in shared
// memory by an up-sweep and a down-sweep (strides doubling then halving, a barrier a level, the
// root cleared by one thread), built twice: with indices padded by one word every 32 (the
// classic conflict-free offset, `i + (i >> 5)`) and unpadded (bank conflicts grow with the
// stride); the blocks' totals scanned by the same kernel on one block, then added back to every
// element by a third kernel; an array whose length is not a multiple of the tile (zero-filled
// tail). The host checks every element of both.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define TILE 512

template <bool PAD>
__device__ __forceinline__ int slot(int i) { return PAD ? i + (i >> 5) : i; }

template <bool PAD>
__global__ void scanTile(const int *in, int *out, int *sums, int n) {
  __shared__ int s[TILE + TILE / 32];
  int t = threadIdx.x, base = blockIdx.x * TILE;
  int a = t, b = t + TILE / 2;
  s[slot<PAD>(a)] = base + a < n ? in[base + a] : 0;
  s[slot<PAD>(b)] = base + b < n ? in[base + b] : 0;
  int off = 1;
  for (int d = TILE >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      s[slot<PAD>(bi)] += s[slot<PAD>(ai)];
    }
    off <<= 1;
  }
  if (t == 0) {
    if (sums) sums[blockIdx.x] = s[slot<PAD>(TILE - 1)];
    s[slot<PAD>(TILE - 1)] = 0;
  }
  for (int d = 1; d < TILE; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int x = s[slot<PAD>(ai)];
      s[slot<PAD>(ai)] = s[slot<PAD>(bi)];
      s[slot<PAD>(bi)] += x;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[slot<PAD>(a)];
  if (base + b < n) out[base + b] = s[slot<PAD>(b)];
}

__global__ void addBack(int *out, const int *sums, int n) {
  __shared__ int add;
  if (threadIdx.x == 0) add = sums[blockIdx.x];
  __syncthreads();
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n) out[i] += add;
  if (i + TILE / 2 < n) out[i + TILE / 2] += add;
}

int main() {
  const int n = 512 * 300 - 77;
  const int nb = (n + TILE - 1) / TILE;
  std::vector<int> h(n), want(n);
  unsigned s = 99u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; h[i] = (int)((s >> 16) % 201) - 60; }
  int acc = 0;
  for (int i = 0; i < n; ++i) { want[i] = acc; acc += h[i]; }
  int *din, *dout, *dsums, *dsums2;
  CK(cudaMalloc(&din, n * 4)); CK(cudaMalloc(&dout, n * 4));
  CK(cudaMalloc(&dsums, TILE * 4)); CK(cudaMalloc(&dsums2, TILE * 4));
  CK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  for (int pad = 1; pad >= 0; --pad) {
    CK(cudaMemset(dout, 0, n * 4));
    if (pad) {
      scanTile<true><<<nb, TILE / 2>>>(din, dout, dsums, n);
      scanTile<true><<<1, TILE / 2>>>(dsums, dsums2, nullptr, nb);
    } else {
      scanTile<false><<<nb, TILE / 2>>>(din, dout, dsums, n);
      scanTile<false><<<1, TILE / 2>>>(dsums, dsums2, nullptr, nb);
    }
    addBack<<<nb, TILE / 2>>>(dout, dsums2, n);
    CK(cudaGetLastError());
    std::vector<int> r(n);
    CK(cudaMemcpy(r.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    int b = 0; long long cs = 0;
    for (int i = 0; i < n; ++i) { b += r[i] != want[i]; cs += (long long)r[i] * (i % 7 + 1); }
    printf("blelloch %s: %d elements, %d tiles, last %d, checksum %lld, %d bad\n",
           pad ? "padded" : "unpadded", n, nb, r[n - 1], cs, b);
    bad += b;
  }
  printf("blelloch %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
