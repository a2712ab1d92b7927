// A summed-area table and box filters over it: a block a row scans its row by warp
// `__shfl_up_sync` scans, the warp totals scanned by the first warp in shared memory, and a carry
// between the row's chunks of 256; a thread a column then adds down the columns (coalesced along
// the row); the box filter reads the table's four corners with clamped rectangles and divides by
// the clipped area (an integer division of data); a second filter of radius from a per-pixel map.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void rowScan(const unsigned char *img, unsigned *sat, int w) {
  __shared__ unsigned warpTot[8];
  __shared__ unsigned carry;
  int y = blockIdx.x, lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int c0 = 0; c0 < w; c0 += 256) {
    int x = c0 + threadIdx.x;
    unsigned v = x < w ? img[y * w + x] : 0u;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      unsigned u = __shfl_up_sync(0xffffffffu, v, o);
      if (lane >= o) v += u;
    }
    if (lane == 31) warpTot[wp] = v;
    __syncthreads();
    if (wp == 0) {
      unsigned t = lane < 8 ? warpTot[lane] : 0u;
      for (int o = 1; o < 8; o <<= 1) {
        unsigned u = __shfl_up_sync(0xffffffffu, t, o);
        if (lane >= o) t += u;
      }
      if (lane < 8) warpTot[lane] = t;
    }
    __syncthreads();
    unsigned add = carry + (wp > 0 ? warpTot[wp - 1] : 0u);
    if (x < w) sat[y * w + x] = v + add;
    __syncthreads();
    if (threadIdx.x == 255) carry = v + add;
    __syncthreads();
  }
}

__global__ void colScan(unsigned *sat, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  unsigned s = 0;
  for (int y = 0; y < h; ++y) { s += sat[y * w + x]; sat[y * w + x] = s; }
}

__device__ __forceinline__ unsigned at(const unsigned *sat, int w, int x, int y) {
  return (x < 0 || y < 0) ? 0u : sat[y * w + x];
}

__global__ void boxK(const unsigned *sat, const unsigned char *rad, unsigned char *out, int w, int h, int fixedR) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int r = fixedR >= 0 ? fixedR : rad[y * w + x];
  int x0 = max(x - r, 0) - 1, y0 = max(y - r, 0) - 1, x1 = min(x + r, w - 1), y1 = min(y + r, h - 1);
  unsigned s = at(sat, w, x1, y1) - at(sat, w, x0, y1) - at(sat, w, x1, y0) + at(sat, w, x0, y0);
  unsigned area = (unsigned)((x1 - x0) * (y1 - y0));
  out[y * w + x] = (unsigned char)((s + area / 2) / area);
}

int main() {
  const int w = 600, h = 90, n = w * h;
  std::vector<unsigned char> img(n), rad(n);
  unsigned s = 31;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    int x = i % w, y = i / w;
    img[i] = (unsigned char)(((x * 7) ^ (y * 13)) + (s >> 28));
    rad[i] = (unsigned char)((x / 40 + y / 30) % 6);
  }
  unsigned char *di, *drad, *do1, *do2; unsigned *dsat;
  CK(cudaMalloc(&di, n)); CK(cudaMalloc(&drad, n)); CK(cudaMalloc(&do1, n)); CK(cudaMalloc(&do2, n)); CK(cudaMalloc(&dsat, n * 4));
  CK(cudaMemcpy(di, img.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(drad, rad.data(), n, cudaMemcpyHostToDevice));
  rowScan<<<h, 256>>>(di, dsat, w);
  colScan<<<(w + 127) / 128, 128>>>(dsat, w, h);
  dim3 bl(32, 4), gr((w + 31) / 32, (h + 3) / 4);
  boxK<<<gr, bl>>>(dsat, drad, do1, w, h, 3);
  boxK<<<gr, bl>>>(dsat, drad, do2, w, h, -1);
  CK(cudaGetLastError());
  std::vector<unsigned> sat(n); std::vector<unsigned char> o1(n), o2(n);
  CK(cudaMemcpy(sat.data(), dsat, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(o1.data(), do1, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(o2.data(), do2, n, cudaMemcpyDeviceToHost));
  std::vector<unsigned> hs(n);
  for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x)
    hs[y * w + x] = img[y * w + x] + (x ? hs[y * w + x - 1] : 0) + (y ? hs[(y - 1) * w + x] : 0) - (x && y ? hs[(y - 1) * w + x - 1] : 0);
  int bad = 0; unsigned long long c1 = 0, c2 = 0;
  auto A = [&](int x, int y) { return (x < 0 || y < 0) ? 0u : hs[y * w + x]; };
  for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x) {
    int i = y * w + x;
    bad += sat[i] != hs[i];
    for (int pass = 0; pass < 2; ++pass) {
      int r = pass == 0 ? 3 : rad[i];
      int x0 = std::max(x - r, 0) - 1, y0 = std::max(y - r, 0) - 1, x1 = std::min(x + r, w - 1), y1 = std::min(y + r, h - 1);
      unsigned sm = A(x1, y1) - A(x0, y1) - A(x1, y0) + A(x0, y0), area = (unsigned)((x1 - x0) * (y1 - y0));
      unsigned char want = (unsigned char)((sm + area / 2) / area);
      bad += (pass == 0 ? o1[i] : o2[i]) != want;
    }
    c1 += o1[i] * (unsigned long long)(i % 251); c2 += o2[i] * (unsigned long long)(i % 241);
  }
  printf("intimg %dx%d: table total %u, box checksums %llu %llu\n", w, h, sat[n - 1], c1, c2);
  printf("intimg %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
