// Image kernels: a histogram of 8-bit pixels with global atomics that saturates its bins at 255
// (a plain read skips full bins, an atomicMin clamps the overshoot), a sum of absolute
// differences for motion search (16x16 macroblocks, every offset in +-8, the reference frame read
// through a 2-D texture of unsigned char with clamped addressing, __usad), the best offset per
// macroblock by a shared-memory argmin, and a 9-point 2-D stencil over 16x16 tiles with a
// one-pixel halo (edges, corners) staged in shared memory. The host checks every result.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cstring>

__global__ void histoSat(const unsigned char* img, unsigned* hist, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned b = img[i];
    if (hist[b] < 255u) {
      unsigned old = atomicAdd(&hist[b], 1u);
      if (old >= 255u) atomicMin(&hist[b], 255u);
    }
  }
}

#define MB 16
#define R 8
#define NOFS ((2 * R + 1) * (2 * R + 1))
__global__ void sad(cudaTextureObject_t ref, const unsigned char* cur, int w, unsigned* out) {
  int mb = blockIdx.x, o = threadIdx.x + blockIdx.y * blockDim.x;
  if (o >= NOFS) return;
  int mbx = mb % (w / MB), mby = mb / (w / MB);
  int dx = o % (2 * R + 1) - R, dy = o / (2 * R + 1) - R;
  unsigned s = 0;
  for (int y = 0; y < MB; y++)
    for (int x = 0; x < MB; x++) {
      int px = mbx * MB + x, py = mby * MB + y;
      unsigned char r = tex2D<unsigned char>(ref, px + dx + 0.5f, py + dy + 0.5f);
      s = __usad(cur[py * w + px], r, s);
    }
  out[mb * NOFS + o] = s;
}

__global__ void bestOffset(const unsigned* sads, int* best) {
  __shared__ unsigned v[512];
  __shared__ int k[512];
  int t = threadIdx.x;
  v[t] = t < NOFS ? sads[blockIdx.x * NOFS + t] : 0xffffffffu;
  k[t] = t;
  __syncthreads();
  for (int h = 256; h > 0; h >>= 1) {
    if (t < h && (v[t + h] < v[t] || (v[t + h] == v[t] && k[t + h] < k[t]))) { v[t] = v[t + h]; k[t] = k[t + h]; }
    __syncthreads();
  }
  if (t == 0) best[blockIdx.x] = k[0];
}

#define T 16
__global__ void stencil9(const float* in, float* out, int w, int h) {
  __shared__ float s[T + 2][T + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
  auto at = [&](int xx, int yy) { xx = min(max(xx, 0), w - 1); yy = min(max(yy, 0), h - 1); return in[yy * w + xx]; };
  s[ty + 1][tx + 1] = at(x, y);
  if (tx == 0) s[ty + 1][0] = at(x - 1, y);
  if (tx == T - 1) s[ty + 1][T + 1] = at(x + 1, y);
  if (ty == 0) s[0][tx + 1] = at(x, y - 1);
  if (ty == T - 1) s[T + 1][tx + 1] = at(x, y + 1);
  if (tx == 0 && ty == 0) s[0][0] = at(x - 1, y - 1);
  if (tx == T - 1 && ty == 0) s[0][T + 1] = at(x + 1, y - 1);
  if (tx == 0 && ty == T - 1) s[T + 1][0] = at(x - 1, y + 1);
  if (tx == T - 1 && ty == T - 1) s[T + 1][T + 1] = at(x + 1, y + 1);
  __syncthreads();
  if (x < w && y < h) {
    float c = 0.5f * s[ty + 1][tx + 1];
    float e = 0.1f * (s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2]);
    float d = 0.025f * (s[ty][tx] + s[ty][tx + 2] + s[ty + 2][tx] + s[ty + 2][tx + 2]);
    out[y * w + x] = c + e + d;
  }
}

int main() {
  int fails = 0;
  unsigned lcg = 8u;
  auto nxt = [&]() { lcg = lcg * 1664525u + 1013904223u; return lcg >> 8; };
  {  // histogram
    const int n = 200000;
    std::vector<unsigned char> img(n);
    for (int i = 0; i < n; i++) { unsigned u = nxt(); img[i] = (u & 7) == 0 ? (unsigned char)(40 + (u >> 3) % 3) : (unsigned char)((u >> 3) % 256 * ((u >> 11) % 256) / 256); }
    unsigned char* dimg; unsigned* dh;
    cudaMalloc(&dimg, n); cudaMalloc(&dh, 256 * 4);
    cudaMemcpy(dimg, img.data(), n, cudaMemcpyHostToDevice);
    cudaMemset(dh, 0, 256 * 4);
    histoSat<<<48, 256>>>(dimg, dh, n);
    unsigned h[256], want[256] = {0};
    cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) want[img[i]]++;
    int bad = 0, full = 0; unsigned long long tot = 0;
    for (int b = 0; b < 256; b++) { unsigned wv = want[b] > 255 ? 255 : want[b]; bad += h[b] != wv; full += h[b] == 255; tot += h[b]; }
    printf("histo bins at 255: %d total %llu h[0] %u h[40] %u h[200] %u %s\n", full, tot, h[0], h[40], h[200], bad ? "BAD" : "ok");
    fails += bad != 0;
  }
  {  // SAD motion search
    const int w = 64, hgt = 48, nmb = (w / MB) * (hgt / MB);
    std::vector<unsigned char> ref(w * hgt), cur(w * hgt);
    for (int y = 0; y < hgt; y++) for (int x = 0; x < w; x++) ref[y * w + x] = (unsigned char)((x * 7 + y * 13 + ((x / 5) * (y / 3) * 29)) & 255);
    // the current frame: the reference moved by (3, -2), plus noise
    for (int y = 0; y < hgt; y++) for (int x = 0; x < w; x++) {
      int sx = std::min(std::max(x + 3, 0), w - 1), sy = std::min(std::max(y - 2, 0), hgt - 1);
      cur[y * w + x] = (unsigned char)(ref[sy * w + sx] + nxt() % 5);
    }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &cd, w, hgt);
    cudaMemcpy2DToArray(arr, 0, 0, ref.data(), w, w, hgt, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeElementType; td.normalizedCoords = 0;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &rd, &td, nullptr);
    unsigned char* dcur; unsigned* dsad; int* dbest;
    cudaMalloc(&dcur, w * hgt); cudaMalloc(&dsad, nmb * NOFS * 4); cudaMalloc(&dbest, nmb * 4);
    cudaMemcpy(dcur, cur.data(), w * hgt, cudaMemcpyHostToDevice);
    sad<<<dim3(nmb, (NOFS + 95) / 96), 96>>>(tex, dcur, w, dsad);
    bestOffset<<<nmb, 512>>>(dsad, dbest);
    std::vector<unsigned> got(nmb * NOFS);
    std::vector<int> best(nmb);
    cudaMemcpy(got.data(), dsad, got.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(best.data(), dbest, nmb * 4, cudaMemcpyDeviceToHost);
    int bad = 0; unsigned long long tot = 0;
    for (int mb = 0; mb < nmb; mb++) {
      unsigned bv = ~0u; int bk = 0;
      for (int o = 0; o < NOFS; o++) {
        int dx = o % (2 * R + 1) - R, dy = o / (2 * R + 1) - R; unsigned s = 0;
        for (int y = 0; y < MB; y++) for (int x = 0; x < MB; x++) {
          int px = (mb % (w / MB)) * MB + x, py = (mb / (w / MB)) * MB + y;
          int rx = std::min(std::max(px + dx, 0), w - 1), ry = std::min(std::max(py + dy, 0), hgt - 1);
          s += abs((int)cur[py * w + px] - (int)ref[ry * w + rx]);
        }
        bad += got[mb * NOFS + o] != s; tot += s;
        if (s < bv) { bv = s; bk = o; }
      }
      bad += best[mb] != bk;
    }
    printf("sad %d macroblocks total %llu best:", nmb, tot);
    for (int mb = 0; mb < nmb; mb++) printf(" (%d,%d)", best[mb] % (2 * R + 1) - R, best[mb] / (2 * R + 1) - R);
    printf(" %s\n", bad ? "BAD" : "ok");
    fails += bad != 0;
  }
  {  // 9-point stencil, three sweeps
    const int w = 200, hgt = 120;
    std::vector<float> a(w * hgt);
    for (auto& v : a) v = (float)(nxt() % 1000) / 100.f;
    std::vector<double> ha(a.begin(), a.end()), hb(w * hgt);
    float *d0, *d1;
    cudaMalloc(&d0, w * hgt * 4); cudaMalloc(&d1, w * hgt * 4);
    cudaMemcpy(d0, a.data(), w * hgt * 4, cudaMemcpyHostToDevice);
    dim3 g((w + T - 1) / T, (hgt + T - 1) / T), b(T, T);
    for (int it = 0; it < 3; it++) {
      stencil9<<<g, b>>>(it % 2 ? d1 : d0, it % 2 ? d0 : d1, w, hgt);
      auto at = [&](int x, int y) { x = std::min(std::max(x, 0), w - 1); y = std::min(std::max(y, 0), hgt - 1); return ha[y * w + x]; };
      for (int y = 0; y < hgt; y++) for (int x = 0; x < w; x++)
        hb[y * w + x] = 0.5 * at(x, y) + 0.1 * (at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y)) +
                        0.025 * (at(x - 1, y - 1) + at(x + 1, y - 1) + at(x - 1, y + 1) + at(x + 1, y + 1));
      ha.swap(hb);
    }
    cudaMemcpy(a.data(), d1, w * hgt * 4, cudaMemcpyDeviceToHost);
    double s = 0, e = 0; unsigned hh = 0;
    for (int i = 0; i < w * hgt; i++) { s += a[i]; e = fmax(e, fabs(a[i] - ha[i])); unsigned bb; memcpy(&bb, &a[i], 4); hh = hh * 31u + bb; }
    printf("stencil9 %dx%d sum %.4f bits %08x %s\n", w, hgt, s, hh, e < 1e-3 ? "ok" : "BAD");
    fails += e >= 1e-3;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
