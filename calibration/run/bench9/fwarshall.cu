// All-pairs shortest paths by Floyd-Warshall on a generated weighted digraph (some edges missing:
// an INF sentinel tested before each addition): a naive kernel, one launch per pivot k, on a 2-D
// grid of 16x16 blocks over a matrix that is not a multiple of the block; and the blocked form in
// 32x32 shared tiles, three phases a round (the pivot tile alone, the pivot row and column tiles,
// every other tile), the inner k loop over shared tiles with barriers. Checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define INF 0x3fffffff
#define T 32

__global__ void fwNaive(int *d, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  int a = d[i * n + k], b = d[k * n + j];
  if (a == INF || b == INF) return;
  if (a + b < d[i * n + j]) d[i * n + j] = a + b;
}

__device__ __forceinline__ int relax(int cur, int a, int b) {
  return (a != INF && b != INF && a + b < cur) ? a + b : cur;
}

// phase 1: the pivot tile against itself
__global__ void fwPivot(int *d, int n, int r) {
  __shared__ int s[T][T];
  int ty = threadIdx.y, tx = threadIdx.x;
  int gi = r * T + ty, gj = r * T + tx;
  s[ty][tx] = d[gi * n + gj];
  __syncthreads();
  for (int k = 0; k < T; ++k) {
    int v = relax(s[ty][tx], s[ty][k], s[k][tx]);
    __syncthreads();
    s[ty][tx] = v;
    __syncthreads();
  }
  d[gi * n + gj] = s[ty][tx];
}

// phase 2: tiles of the pivot row (blockIdx.y == 0) and column (blockIdx.y == 1)
__global__ void fwCross(int *d, int n, int r) {
  if (blockIdx.x == r) return;
  __shared__ int p[T][T], s[T][T];
  int ty = threadIdx.y, tx = threadIdx.x;
  bool row = blockIdx.y == 0;
  int gi = (row ? r : blockIdx.x) * T + ty, gj = (row ? blockIdx.x : r) * T + tx;
  p[ty][tx] = d[(r * T + ty) * n + r * T + tx];
  s[ty][tx] = d[gi * n + gj];
  __syncthreads();
  for (int k = 0; k < T; ++k) {
    int v = row ? relax(s[ty][tx], p[ty][k], s[k][tx]) : relax(s[ty][tx], s[ty][k], p[k][tx]);
    __syncthreads();
    s[ty][tx] = v;
    __syncthreads();
  }
  d[gi * n + gj] = s[ty][tx];
}

// phase 3: every other tile from its row's and column's cross tiles
__global__ void fwRest(int *d, int n, int r) {
  if (blockIdx.x == r || blockIdx.y == r) return;
  __shared__ int a[T][T], b[T][T];
  int ty = threadIdx.y, tx = threadIdx.x;
  int gi = blockIdx.y * T + ty, gj = blockIdx.x * T + tx;
  a[ty][tx] = d[gi * n + r * T + tx];
  b[ty][tx] = d[(r * T + ty) * n + gj];
  __syncthreads();
  int cur = d[gi * n + gj];
#pragma unroll 8
  for (int k = 0; k < T; ++k) cur = relax(cur, a[ty][k], b[k][tx]);
  d[gi * n + gj] = cur;
}

static unsigned lcg(unsigned &s) { s = s * 1664525u + 1013904223u; return s >> 8; }

static void graph(int *g, int n, unsigned seed) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      unsigned r = lcg(seed);
      g[i * n + j] = i == j ? 0 : (r % 100 < 12 ? (int)(r % 97) + 1 : INF);
    }
}

static void host(int *g, int n) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        int a = g[i * n + k], b = g[k * n + j];
        if (a != INF && b != INF && a + b < g[i * n + j]) g[i * n + j] = a + b;
      }
}

static long long sum(const int *g, int n, int *unreach) {
  long long s = 0; *unreach = 0;
  for (int i = 0; i < n * n; ++i) { if (g[i] == INF) ++*unreach; else s += g[i]; }
  return s;
}

int main() {
  int bad = 0;
  // naive, n = 48
  {
    int n = 48;
    int *g = (int *)malloc(n * n * 4), *h = (int *)malloc(n * n * 4);
    graph(g, n, 7);
    int *d; CK(cudaMalloc(&d, n * n * 4));
    CK(cudaMemcpy(d, g, n * n * 4, cudaMemcpyHostToDevice));
    dim3 b(16, 16), gr((n + 15) / 16, (n + 15) / 16);
    for (int k = 0; k < n; ++k) fwNaive<<<gr, b>>>(d, n, k);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, n * n * 4, cudaMemcpyDeviceToHost));
    host(g, n);
    for (int i = 0; i < n * n; ++i) bad += h[i] != g[i];
    int u; long long s = sum(h, n, &u);
    printf("naive n=%d sum %lld unreachable %d\n", n, s, u);
    CK(cudaFree(d)); free(g); free(h);
  }
  // blocked, n = 128: 4 rounds of 3 launches
  {
    int n = 128, R = n / T;
    int *g = (int *)malloc(n * n * 4), *h = (int *)malloc(n * n * 4);
    graph(g, n, 99);
    for (int i = 0; i < n * n; ++i) if (g[i] != INF && g[i] > 0 && (i % 5) != 0) g[i] = INF;
    int *d; CK(cudaMalloc(&d, n * n * 4));
    CK(cudaMemcpy(d, g, n * n * 4, cudaMemcpyHostToDevice));
    dim3 b(T, T);
    for (int r = 0; r < R; ++r) {
      fwPivot<<<1, b>>>(d, n, r);
      fwCross<<<dim3(R, 2), b>>>(d, n, r);
      fwRest<<<dim3(R, R), b>>>(d, n, r);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, n * n * 4, cudaMemcpyDeviceToHost));
    host(g, n);
    for (int i = 0; i < n * n; ++i) bad += h[i] != g[i];
    int u; long long s = sum(h, n, &u);
    printf("blocked n=%d sum %lld unreachable %d\n", n, s, u);
    CK(cudaFree(d)); free(g); free(h);
  }
  printf("fwarshall %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
