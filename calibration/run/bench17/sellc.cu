// Sparse matrix-vector products in SELL-C-sigma: rows sorted by length (longest first) inside
// windows of sigma = 1,024 rows, cut into slices of C rows, each slice as wide as its longest row,
// stored column-major within the slice (padding: column -1). C = 32 a thread a row (a warp a
// slice); C = 16 two threads a row (even and odd entries, joined by __shfl_xor_sync), the result
// written through the permutation. Rows of 1 to 24 entries, every 61st row 180. Eight steps of a
// power iteration (y = A x, per-block sums of squares in double, the host scales), both formats;
// checked against the host's CSR product in double.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <vector>
#include <algorithm>
#include <numeric>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

struct Sell { std::vector<int> start, width, col, perm; std::vector<float> val; };

Sell build(int n, int C, int sigma, const std::vector<int>& rp, const std::vector<int>& ci, const std::vector<float>& v) {
  Sell s;
  s.perm.resize(n);
  std::iota(s.perm.begin(), s.perm.end(), 0);
  for (int w = 0; w < n; w += sigma)
    std::stable_sort(s.perm.begin() + w, s.perm.begin() + std::min(n, w + sigma),
                     [&](int a, int b) { return rp[a + 1] - rp[a] > rp[b + 1] - rp[b]; });
  int slices = (n + C - 1) / C, off = 0;
  for (int sl = 0; sl < slices; ++sl) {
    int w = 0;
    for (int r = 0; r < C && sl * C + r < n; ++r) { int row = s.perm[sl * C + r]; w = std::max(w, rp[row + 1] - rp[row]); }
    s.start.push_back(off); s.width.push_back(w);
    off += w * C;
  }
  s.start.push_back(off);
  s.col.assign(off, -1); s.val.assign(off, 0.f);
  for (int sl = 0; sl < slices; ++sl)
    for (int r = 0; r < C && sl * C + r < n; ++r) {
      int row = s.perm[sl * C + r];
      for (int j = 0; j < rp[row + 1] - rp[row]; ++j) {
        s.col[s.start[sl] + j * C + r] = ci[rp[row] + j];
        s.val[s.start[sl] + j * C + r] = v[rp[row] + j];
      }
    }
  return s;
}

__global__ void sell32(const int* __restrict__ start, const int* __restrict__ width, const int* __restrict__ col,
                       const float* __restrict__ val, const int* __restrict__ perm, const float* __restrict__ x, float* y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int sl = row / 32, r = row % 32;
  if (row >= n) return;
  int b = start[sl], w = width[sl];
  float sum = 0.f;
  for (int j = 0; j < w; ++j) {
    int c = col[b + j * 32 + r];
    if (c < 0) break;
    sum += val[b + j * 32 + r] * __ldg(&x[c]);
  }
  y[perm[row]] = sum;
}

__global__ void sell16(const int* __restrict__ start, const int* __restrict__ width, const int* __restrict__ col,
                       const float* __restrict__ val, const int* __restrict__ perm, const float* __restrict__ x, float* y, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int half = threadIdx.x / 16 & 1, row;
  int lane = threadIdx.x & 31, r = lane & 15;
  row = (t / 32) * 16 + r;
  int sl = row / 16;
  float sum = 0.f;
  if (row < n) {
    int b = start[sl], w = width[sl];
    for (int j = half; j < w; j += 2) {
      int c = col[b + j * 16 + r];
      if (c >= 0) sum += val[b + j * 16 + r] * __ldg(&x[c]);
    }
  }
  sum += __shfl_xor_sync(0xffffffffu, sum, 16);
  if (row < n && half == 0) y[perm[row]] = sum;
}

__global__ void squares(const float* y, double* part, int n) {
  __shared__ double s[256];
  double a = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a += (double)y[i] * y[i];
  s[threadIdx.x] = a;
  __syncthreads();
  for (int o = 128; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}

__global__ void scale(const float* y, float* x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = y[i] * f;
}

int main() {
  const int n = 300007, sigma = 1024, steps = 8, pb = 120;
  std::vector<int> rp(n + 1, 0), ci;
  std::vector<float> v;
  unsigned s = 5u;
  auto rnd = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; };
  for (int i = 0; i < n; ++i) {
    int len = i % 61 == 0 ? 180 : 1 + rnd() % 24;
    for (int j = 0; j < len; ++j) {
      ci.push_back(j == 0 ? i : (int)(rnd() % n));
      v.push_back(j == 0 ? 4.0f : (float)((int)(rnd() % 201) - 100) / 256.0f);
    }
    rp[i + 1] = (int)ci.size();
  }
  Sell a = build(n, 32, sigma, rp, ci, v), b = build(n, 16, sigma, rp, ci, v);
  std::vector<float> x0(n);
  for (int i = 0; i < n; ++i) x0[i] = 1.0f + (float)(i % 7) / 8.0f;
  auto up = [](const void* h, size_t bytes) { void* d; CK(cudaMalloc(&d, bytes)); CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice)); return d; };
  int *as = (int*)up(a.start.data(), 4 * a.start.size()), *aw = (int*)up(a.width.data(), 4 * a.width.size());
  int *ac = (int*)up(a.col.data(), 4 * a.col.size()), *ap = (int*)up(a.perm.data(), 4 * n);
  float* av = (float*)up(a.val.data(), 4 * a.val.size());
  int *bs = (int*)up(b.start.data(), 4 * b.start.size()), *bw = (int*)up(b.width.data(), 4 * b.width.size());
  int *bc = (int*)up(b.col.data(), 4 * b.col.size()), *bp = (int*)up(b.perm.data(), 4 * n);
  float* bv = (float*)up(b.val.data(), 4 * b.val.size());
  float *dx, *dy; double* dpart;
  CK(cudaMalloc(&dx, 4 * n)); CK(cudaMalloc(&dy, 4 * n)); CK(cudaMalloc(&dpart, 8 * pb));
  bool ok = true;
  for (int f = 0; f < 2; ++f) {
    CK(cudaMemcpy(dx, x0.data(), 4 * n, cudaMemcpyHostToDevice));
    std::vector<double> hx(x0.begin(), x0.end());
    double norm = 0; int bad = 0;
    for (int it = 0; it < steps; ++it) {
      if (f == 0) sell32<<<(n + 127) / 128, 128>>>(as, aw, ac, av, ap, dx, dy, n);
      else sell16<<<(2 * n + 255) / 256, 256>>>(bs, bw, bc, bv, bp, dx, dy, n);
      squares<<<pb, 256>>>(dy, dpart, n);
      std::vector<double> part(pb);
      CK(cudaMemcpy(part.data(), dpart, 8 * pb, cudaMemcpyDeviceToHost));
      double sq = 0;
      for (double p : part) sq += p;
      norm = sqrt(sq);
      std::vector<float> gy(n);
      CK(cudaMemcpy(gy.data(), dy, 4 * n, cudaMemcpyDeviceToHost));
      std::vector<double> hy(n, 0.0);
      double hsq = 0;
      for (int i = 0; i < n; ++i) {
        for (int k = rp[i]; k < rp[i + 1]; ++k) hy[i] += (double)v[k] * hx[ci[k]];
        hsq += hy[i] * hy[i];
        if (fabs(hy[i] - gy[i]) > 2e-3 * (1 + fabs(hy[i]))) ++bad;
      }
      for (int i = 0; i < n; ++i) hx[i] = (float)(gy[i] / norm);  // follow the GPU's vector
      scale<<<(n + 255) / 256, 256>>>(dy, dx, (float)(1.0 / norm), n);
    }
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<float> gx(n);
    CK(cudaMemcpy(gx.data(), dx, 4 * n, cudaMemcpyDeviceToHost));
    unsigned hash = 2166136261u;
    for (int i = 0; i < n; ++i) { unsigned u; memcpy(&u, &gx[i], 4); hash = (hash ^ u) * 16777619u; }
    printf("sellc C=%d: %zu slots for %zu entries, last norm %.6f, vector hash %08x, wrong %d\n", f ? 16 : 32,
           f ? b.val.size() : a.val.size(), v.size(), norm, hash, bad);
    ok = ok && bad == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
