// Reductions of structures with ties broken by index: (1) min and argmin of 2^24 floats quantised
// to 1/64 (many ties), a block a grid-stride slice then a shared tree of 8-byte {value, index}
// pairs, a second launch over the blocks' pairs; (2) for each of 4,096 queries a block scans 6,000
// candidates for the nearest (squared integer distances, exact in float) and reduces 12-byte
// {distance, index, label} triples in shared memory; (3) a warp a row of a 1,536 x 999 double
// matrix: argmax by __shfl_down_sync of the double and the index.
#include <cstdio>
#include <cstdlib>
#include <cfloat>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

struct Pair { float v; int i; };
struct Triple { float d; int i; int label; };

__device__ __forceinline__ bool less(Pair a, Pair b) { return a.v < b.v || (a.v == b.v && a.i < b.i); }

__global__ void argminPass(const float* __restrict__ x, const Pair* __restrict__ inPairs, Pair* out, int n) {
  __shared__ Pair sp[256];
  Pair best = {FLT_MAX, 0x7fffffff};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    Pair c = inPairs ? inPairs[i] : Pair{x[i], i};
    if (less(c, best)) best = c;
  }
  sp[threadIdx.x] = best;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s && less(sp[threadIdx.x + s], sp[threadIdx.x])) sp[threadIdx.x] = sp[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sp[0];
}

__global__ void nearest(const int2* __restrict__ q, const int2* __restrict__ c, const int* __restrict__ lab, Triple* out, int nc) {
  __shared__ Triple st[128];
  int2 p = q[blockIdx.x];
  Triple best = {FLT_MAX, -1, -1};
  for (int j = threadIdx.x; j < nc; j += blockDim.x) {
    int2 o = c[j];
    float dx = (float)(o.x - p.x), dy = (float)(o.y - p.y);
    float d = dx * dx + dy * dy;
    if (d < best.d) best = Triple{d, j, lab[j]};
  }
  st[threadIdx.x] = best;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      Triple a = st[threadIdx.x], b = st[threadIdx.x + s];
      if (b.d < a.d || (b.d == a.d && b.i < a.i)) st[threadIdx.x] = b;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = st[0];
}

__global__ void rowArgmax(const double* __restrict__ m, int* arg, double* mx, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  double bv = -1e300; int bi = cols;
  for (int j = lane; j < cols; j += 32) {
    double v = m[(size_t)row * cols + j];
    if (v > bv) { bv = v; bi = j; }
  }
  for (int o = 16; o > 0; o >>= 1) {
    double ov = __shfl_down_sync(0xffffffffu, bv, o);
    int oi = __shfl_down_sync(0xffffffffu, bi, o);
    if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
  }
  if (lane == 0) { arg[row] = bi; mx[row] = bv; }
}

int main() {
  int bad = 0;
  unsigned s = 3u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  // (1)
  const int n = 1 << 24, blocks = 333;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = (float)(int)(rnd() % 60000 + 7) / 64.0f;
  x[3000000] = x[123457] = x[4000001] = 0.0625f;
  float* dx; Pair *dp, *dr;
  CK(cudaMalloc(&dx, 4 * n)); CK(cudaMalloc(&dp, 8 * blocks)); CK(cudaMalloc(&dr, 8));
  CK(cudaMemcpy(dx, x.data(), 4 * n, cudaMemcpyHostToDevice));
  argminPass<<<blocks, 256>>>(dx, nullptr, dp, n);
  argminPass<<<1, 256>>>(nullptr, dp, dr, blocks);
  Pair r;
  CK(cudaMemcpy(&r, dr, 8, cudaMemcpyDeviceToHost));
  int hi = 0;
  for (int i = 1; i < n; ++i) if (x[i] < x[hi]) hi = i;
  if (r.i != hi || r.v != x[hi]) ++bad;
  printf("argmin: min %.4f at %d (host %d)\n", r.v, r.i, hi);
  // (2)
  const int nq = 4096, nc = 6000;
  std::vector<int2> q(nq), c(nc);
  std::vector<int> lab(nc);
  for (auto& p : q) p = make_int2(rnd() % 2000, rnd() % 2000);
  for (int j = 0; j < nc; ++j) { c[j] = make_int2(rnd() % 2000, rnd() % 2000); lab[j] = rnd() % 10; }
  int2 *dq, *dc; int* dl; Triple* dt;
  CK(cudaMalloc(&dq, 8 * nq)); CK(cudaMalloc(&dc, 8 * nc)); CK(cudaMalloc(&dl, 4 * nc)); CK(cudaMalloc(&dt, 12 * nq));
  CK(cudaMemcpy(dq, q.data(), 8 * nq, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dc, c.data(), 8 * nc, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dl, lab.data(), 4 * nc, cudaMemcpyHostToDevice));
  nearest<<<nq, 128>>>(dq, dc, dl, dt, nc);
  std::vector<Triple> t(nq);
  CK(cudaMemcpy(t.data(), dt, 12 * nq, cudaMemcpyDeviceToHost));
  long long dsum = 0; int votes[10] = {};
  for (int k = 0; k < nq; ++k) {
    long long bd = -1; int bj = -1;
    for (int j = 0; j < nc; ++j) {
      long long dx2 = c[j].x - q[k].x, dy2 = c[j].y - q[k].y, d = dx2 * dx2 + dy2 * dy2;
      if (bj < 0 || d < bd) { bd = d; bj = j; }
    }
    if (t[k].i != bj || (long long)t[k].d != bd || t[k].label != lab[bj]) ++bad;
    dsum += (long long)t[k].d; votes[t[k].label]++;
  }
  printf("nearest: %d queries, distance sum %lld, label 0 %d times, label 9 %d times\n", nq, dsum, votes[0], votes[9]);
  // (3)
  const int rows = 1536, cols = 999;
  std::vector<double> m((size_t)rows * cols);
  for (auto& v : m) v = (double)(rnd() % 5000) / 8.0;
  double* dm; int* da; double* dmx;
  CK(cudaMalloc(&dm, 8 * m.size())); CK(cudaMalloc(&da, 4 * rows)); CK(cudaMalloc(&dmx, 8 * rows));
  CK(cudaMemcpy(dm, m.data(), 8 * m.size(), cudaMemcpyHostToDevice));
  rowArgmax<<<(rows * 32 + 255) / 256, 256>>>(dm, da, dmx, rows, cols);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<int> ga(rows); std::vector<double> gm(rows);
  CK(cudaMemcpy(ga.data(), da, 4 * rows, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(gm.data(), dmx, 8 * rows, cudaMemcpyDeviceToHost));
  long long asum = 0;
  for (int i = 0; i < rows; ++i) {
    int b = 0;
    for (int j = 1; j < cols; ++j) if (m[(size_t)i * cols + j] > m[(size_t)i * cols + b]) b = j;
    if (ga[i] != b || gm[i] != m[(size_t)i * cols + b]) ++bad;
    asum += ga[i];
  }
  printf("rowArgmax: %d rows, index sum %lld, wrong %d\n", rows, asum, bad);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
