// Marching squares over a 2048 x 2048 field with a hashed ripple: a classify launch (each cell's
// case from its corners, the segment count, a 1,024-thread block scan by __shfl_up_sync with warp
// totals in shared memory), a one-block scan of the block totals (1,024 threads, 4 a thread),
// an emit launch (the offsets again, each segment's ends interpolated on the cell's edges by a
// float division, the saddle cases by the cell's mean). Two iso levels. Checked against the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>

// edges: 0 bottom (v0-v1), 1 right (v1-v2), 2 top (v3-v2), 3 left (v0-v3); corner bits v0 1, v1 2, v2 4, v3 8
__constant__ signed char SEG[16][4];
static const signed char hSEG[16][4] = {
    {-1, -1, -1, -1}, {3, 0, -1, -1}, {0, 1, -1, -1}, {3, 1, -1, -1}, {1, 2, -1, -1}, {3, 0, 1, 2},
    {0, 2, -1, -1}, {3, 2, -1, -1}, {2, 3, -1, -1}, {0, 2, -1, -1}, {0, 1, 2, 3}, {1, 2, -1, -1},
    {1, 3, -1, -1}, {0, 1, -1, -1}, {3, 0, -1, -1}, {-1, -1, -1, -1}};

__host__ __device__ inline int cellCase(const float *f, int W, int x, int y, float iso) {
  int c = 0;
  c |= f[y * W + x] > iso ? 1 : 0;
  c |= f[y * W + x + 1] > iso ? 2 : 0;
  c |= f[(y + 1) * W + x + 1] > iso ? 4 : 0;
  c |= f[(y + 1) * W + x] > iso ? 8 : 0;
  return c;
}
__host__ __device__ inline int segCount(int c) { return c == 0 || c == 15 ? 0 : (c == 5 || c == 10) ? 2 : 1; }

// a saddle's pairing by the cell's mean: above the iso value the two lone corners join
__host__ __device__ inline int saddleFlip(const float *f, int W, int x, int y, float iso) {
  float m = 0.25f * (f[y * W + x] + f[y * W + x + 1] + f[(y + 1) * W + x + 1] + f[(y + 1) * W + x]);
  return m > iso;
}

__host__ __device__ inline float2 edgePoint(const float *f, int W, int x, int y, int e, float iso) {
  float a, b, t;
  float2 p;
  switch (e) {
    case 0: a = f[y * W + x]; b = f[y * W + x + 1]; t = (iso - a) / (b - a); p = make_float2(x + t, (float)y); break;
    case 1: a = f[y * W + x + 1]; b = f[(y + 1) * W + x + 1]; t = (iso - a) / (b - a); p = make_float2(x + 1.0f, y + t); break;
    case 2: a = f[(y + 1) * W + x]; b = f[(y + 1) * W + x + 1]; t = (iso - a) / (b - a); p = make_float2(x + t, y + 1.0f); break;
    default: a = f[y * W + x]; b = f[(y + 1) * W + x]; t = (iso - a) / (b - a); p = make_float2((float)x, y + t); break;
  }
  return p;
}

__device__ inline int blockExclusive(int v, int *warpTot, int *total) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int inc = v;
  for (int d = 1; d < 32; d <<= 1) {
    int o = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d) inc += o;
  }
  if (lane == 31) warpTot[w] = inc;
  __syncthreads();
  if (w == 0) {
    int t = lane < (int)(blockDim.x >> 5) ? warpTot[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      int o = __shfl_up_sync(0xffffffffu, t, d);
      if (lane >= d) t += o;
    }
    if (lane < (int)(blockDim.x >> 5)) warpTot[lane] = t;
    if (lane == 31) *total = t;
  }
  __syncthreads();
  return inc - v + (w ? warpTot[w - 1] : 0);
}

__global__ void classify(const float *f, int W, int H, float iso, unsigned char *cases, int *blockSums) {
  __shared__ int warpTot[32];
  __shared__ int total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 0;
  if (i < (W - 1) * (H - 1)) {
    int x = i % (W - 1), y = i / (W - 1);
    int c = cellCase(f, W, x, y, iso);
    if ((c == 5 || c == 10) && saddleFlip(f, W, x, y, iso)) c |= 16;
    cases[i] = (unsigned char)c;
    n = segCount(c & 15);
  }
  blockExclusive(n, warpTot, &total);
  if (threadIdx.x == 0) blockSums[blockIdx.x] = total;
}

__global__ void scanTotals(int *s, int n, int *grand) {
  __shared__ int warpTot[32];
  __shared__ int total;
  int base = threadIdx.x * 4;
  int v[4], sum = 0;
  for (int k = 0; k < 4; k++) { v[k] = base + k < n ? s[base + k] : 0; sum += v[k]; }
  int ex = blockExclusive(sum, warpTot, &total);
  for (int k = 0; k < 4; k++) {
    if (base + k < n) s[base + k] = ex;
    ex += v[k];
  }
  if (threadIdx.x == 0) *grand = total;
}

__global__ void emit(const float *f, int W, int H, float iso, const unsigned char *cases, const int *blockOff, float4 *segs) {
  __shared__ int warpTot[32];
  __shared__ int total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = 0, n = 0;
  if (i < (W - 1) * (H - 1)) { c = cases[i]; n = segCount(c & 15); }
  int o = blockExclusive(n, warpTot, &total) + blockOff[blockIdx.x];
  if (n == 0) return;
  int x = i % (W - 1), y = i / (W - 1);
  int cc = c & 15;
  int e0 = SEG[cc][0], e1 = SEG[cc][1], e2 = SEG[cc][2], e3 = SEG[cc][3];
  if (c & 16) { int t = e1; e1 = e3; e3 = t; }  // saddle joined the other way
  float2 a = edgePoint(f, W, x, y, e0, iso), b = edgePoint(f, W, x, y, e1, iso);
  segs[o] = make_float4(a.x, a.y, b.x, b.y);
  if (n == 2) {
    float2 p = edgePoint(f, W, x, y, e2, iso), q = edgePoint(f, W, x, y, e3, iso);
    segs[o + 1] = make_float4(p.x, p.y, q.x, q.y);
  }
}

int main(int argc, char **argv) {
  int W = argc > 1 ? atoi(argv[1]) : 2048, H = W;
  std::vector<float> f(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      double u = x / (double)W, v = y / (double)H;
      f[y * W + x] = (float)(sin(23.0 * u) * cos(17.0 * v) + 0.6 * sin(61.0 * u * v) + 0.3 * cos(9.0 * (u - v)) + 0.12 * sin(157.0 * u + 3.0) * cos(211.0 * v)
                             + 0.04 * (((uint32_t)(x * 73856093u ^ y * 19349663u) % 1024u) / 1023.0 - 0.5));
    }
  int cells = (W - 1) * (H - 1), bs = 1024, nb = (cells + bs - 1) / bs;
  if (nb > 4096) { printf("too many blocks\n"); return 2; }
  cudaMemcpyToSymbol(SEG, hSEG, sizeof hSEG);
  float *df; unsigned char *dc; int *dsum, *dg; float4 *dseg;
  cudaMalloc(&df, W * H * 4); cudaMalloc(&dc, cells); cudaMalloc(&dsum, nb * 4); cudaMalloc(&dg, 4);
  cudaMalloc(&dseg, 2 * (size_t)cells * 16 / 4);
  cudaMemcpy(df, f.data(), W * H * 4, cudaMemcpyHostToDevice);
  bool ok = true;
  const float isos[2] = {0.0f, 0.45f};
  for (float iso : isos) {
    classify<<<nb, bs>>>(df, W, H, iso, dc, dsum);
    scanTotals<<<1, 1024>>>(dsum, nb, dg);
    int total;
    cudaMemcpy(&total, dg, 4, cudaMemcpyDeviceToHost);
    if (total > cells / 2) { printf("segment buffer too small\n"); return 2; }
    emit<<<nb, bs>>>(df, W, H, iso, dc, dsum, dseg);
    std::vector<float4> g(total);
    cudaMemcpy(g.data(), dseg, total * 16, cudaMemcpyDeviceToHost);
    int k = 0, bad = 0, saddles = 0;
    double len = 0;
    for (int y = 0; y < H - 1; y++)
      for (int x = 0; x < W - 1; x++) {
        int c = cellCase(f.data(), W, x, y, iso), n = segCount(c);
        if (n == 0) continue;
        int e[4] = {hSEG[c][0], hSEG[c][1], hSEG[c][2], hSEG[c][3]};
        if (n == 2) { saddles++; if (saddleFlip(f.data(), W, x, y, iso)) { int t = e[1]; e[1] = e[3]; e[3] = t; } }
        for (int s = 0; s < n; s++, k++) {
          float2 a = edgePoint(f.data(), W, x, y, e[2 * s], iso), b = edgePoint(f.data(), W, x, y, e[2 * s + 1], iso);
          if (k >= total) { bad++; continue; }
          float4 q = g[k];
          if (fabsf(q.x - a.x) > 1e-4f || fabsf(q.y - a.y) > 1e-4f || fabsf(q.z - b.x) > 1e-4f || fabsf(q.w - b.y) > 1e-4f) bad++;
          len += sqrt((double)(q.z - q.x) * (q.z - q.x) + (double)(q.w - q.y) * (q.w - q.y));
        }
      }
    printf("iso %.2f: %d segments (host %d), %d saddles, length %.4f, %d differ\n", iso, total, k, saddles, len, bad);
    ok &= total == k && bad == 0;
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("msquares: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
