// Pitched 2-D memory, symbols, managed memory and a large dynamic shared buffer of mixed types:
// an image and a mask in `cudaMallocPitch` buffers, cleared and filled by `cudaMemset2D` (a hole in
// the mask), the image's interior written by a host-to-device `cudaMemcpy2D` into an offset
// sub-rectangle; a 5x5 stencil's weights in a `__constant__` struct and gains written at a byte
// offset (`cudaMemcpyToSymbol` with offset, read back by `cudaMemcpyFromSymbol`); the stencil with
// its halo in one dynamic shared buffer holding a float tile, a byte tile of the mask and per-warp
// int counters (32x8 blocks), its result in `cudaMallocManaged` memory prefetched to the device
// (`cudaMemAdvise`, `cudaMemPrefetchAsync`) and read by the host directly; the same stencil over
// 64x256 strips in ~88 KB of dynamic shared memory (`cudaFuncSetAttribute`), written pitched and
// read back by a device-to-host `cudaMemcpy2D`; a device-to-device `cudaMemcpy2D` of a window.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Params { float w[5][5]; int radius; float thresh; };
__constant__ Params cp;
__constant__ float gain[4];

constexpr int R = 2;

__device__ inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// tile of (TH + 4) x (TW + 4) floats, then the same of bytes, then one int a warp
template <int TW, int TH>
__device__ void stencilTile(const float *img, size_t ip, const unsigned char *mask, size_t mp, int w, int h,
                            int x0, int y0, float *tile, unsigned char *mt, int *cnt, float *out, size_t op,
                            int *holes) {
  const int SW = TW + 2 * R, SH = TH + 2 * R, nt = blockDim.x * blockDim.y;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < nt / 32) cnt[t] = 0;
  for (int i = t; i < SW * SH; i += nt) {
    int sx = i % SW, sy = i / SW;
    int gx = clampi(x0 + sx - R, 0, w - 1), gy = clampi(y0 + sy - R, 0, h - 1);
    tile[i] = *(const float *)((const char *)img + gy * ip + gx * sizeof(float));
    mt[i] = mask[gy * mp + gx];
  }
  __syncthreads();
  for (int ly = threadIdx.y; ly < TH; ly += blockDim.y)
    for (int lx = threadIdx.x; lx < TW; lx += blockDim.x) {
      int gx = x0 + lx, gy = y0 + ly;
      if (gx >= w || gy >= h) continue;
      float v;
      const int c = (ly + R) * SW + lx + R;
      if (mt[c]) {
        float s = 0.0f;
        for (int dy = -R; dy <= R; ++dy)
          for (int dx = -R; dx <= R; ++dx) s += cp.w[dy + R][dx + R] * tile[c + dy * SW + dx];
        v = s > cp.thresh ? s * gain[1] : s * gain[2];
      } else {
        v = tile[c] * gain[3];
        atomicAdd(&cnt[t >> 5], 1);
      }
      *(float *)((char *)out + gy * op + gx * sizeof(float)) = v;
    }
  __syncthreads();
  if (t < nt / 32 && cnt[t]) atomicAdd(holes, cnt[t]);
}

__global__ void stencilSmall(const float *img, size_t ip, const unsigned char *mask, size_t mp, int w, int h,
                             float *out, int *holes) {
  extern __shared__ __align__(16) unsigned char dyn[];
  const int SW = 32 + 2 * R, SH = 8 + 2 * R;
  float *tile = (float *)dyn;
  unsigned char *mt = dyn + SW * SH * sizeof(float);
  int *cnt = (int *)(dyn + ((SW * SH * (sizeof(float) + 1) + 15) & ~15));
  stencilTile<32, 8>(img, ip, mask, mp, w, h, blockIdx.x * 32, blockIdx.y * 8, tile, mt, cnt, out,
                     w * sizeof(float), holes);
}

__global__ void stencilStrip(const float *img, size_t ip, const unsigned char *mask, size_t mp, int w, int h,
                             float *out, size_t op, int *holes) {
  extern __shared__ __align__(16) unsigned char dyn[];
  const int SW = 64 + 2 * R, SH = 256 + 2 * R;
  float *tile = (float *)dyn;
  unsigned char *mt = dyn + SW * SH * sizeof(float);
  int *cnt = (int *)(dyn + ((SW * SH * (sizeof(float) + 1) + 15) & ~15));
  stencilTile<64, 256>(img, ip, mask, mp, w, h, blockIdx.x * 64, blockIdx.y * 256, tile, mt, cnt, out, op, holes);
}

int main() {
  const int W = 1000, H = 600, IW = W - 16, IH = H - 8;
  int fails = 0;
  std::vector<float> interior((size_t)IW * IH);
  unsigned s = 99u;
  for (auto &v : interior) { s = s * 1664525u + 1013904223u; v = (float)((s >> 12) % 1024) / 64.0f - 4.0f; }
  float *img, *out2; unsigned char *mask; size_t ip, mp, op;
  CK(cudaMallocPitch(&img, &ip, W * sizeof(float), H));
  CK(cudaMallocPitch(&mask, &mp, W, H));
  CK(cudaMallocPitch(&out2, &op, W * sizeof(float), H));
  CK(cudaMemset2D(img, ip, 0, W * sizeof(float), H));
  CK(cudaMemset2D(mask, mp, 1, W, H));
  CK(cudaMemset2D(mask + 100 * mp + 300, mp, 0, 200, 100));
  CK(cudaMemcpy2D((char *)img + 4 * ip + 8 * sizeof(float), ip, interior.data(), IW * sizeof(float),
                  IW * sizeof(float), IH, cudaMemcpyHostToDevice));
  Params hp;
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) hp.w[y][x] = (float)((x + 1) * (5 - y) % 7 - 3) / 16.0f;
  hp.radius = R; hp.thresh = 0.25f;
  CK(cudaMemcpyToSymbol(cp, &hp, sizeof(hp)));
  float g4[4] = {9.0f, 9.0f, 9.0f, 9.0f}, g2[2] = {2.0f, 0.5f}, g3 = -1.0f;
  CK(cudaMemcpyToSymbol(gain, g4, sizeof(g4)));
  CK(cudaMemcpyToSymbol(gain, g2, sizeof(g2), sizeof(float)));       // gain[1], gain[2]
  CK(cudaMemcpyToSymbol(gain, &g3, sizeof(g3), 3 * sizeof(float)));  // gain[3]
  float gb[4];
  CK(cudaMemcpyFromSymbol(gb, gain, sizeof(gb)));
  printf("gains %.2f %.2f %.2f %.2f\n", gb[0], gb[1], gb[2], gb[3]);
  float *mo; int *holes;
  CK(cudaMallocManaged(&mo, (size_t)W * H * sizeof(float)));
  CK(cudaMallocManaged(&holes, 2 * sizeof(int)));
  holes[0] = holes[1] = 0;
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaMemLocation loc; loc.type = cudaMemLocationTypeDevice; loc.id = dev;
  CK(cudaMemAdvise(mo, (size_t)W * H * sizeof(float), cudaMemAdviseSetPreferredLocation, loc));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  CK(cudaMemPrefetchAsync(mo, (size_t)W * H * sizeof(float), loc, 0, st));
  size_t smallBytes = ((36 * 12 * 5 + 15) & ~15) + 8 * sizeof(int);
  stencilSmall<<<dim3((W + 31) / 32, (H + 7) / 8), dim3(32, 8), smallBytes, st>>>(img, ip, mask, mp, W, H, mo, holes);
  CK(cudaGetLastError());
  size_t bigBytes = ((68 * 260 * 5 + 15) & ~15) + 8 * sizeof(int);
  CK(cudaFuncSetAttribute(stencilStrip, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bigBytes));
  stencilStrip<<<dim3((W + 63) / 64, (H + 255) / 256), dim3(64, 4), bigBytes, st>>>(img, ip, mask, mp, W, H, out2, op,
                                                                                   holes + 1);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(st));
  std::vector<float> o2((size_t)W * H);
  CK(cudaMemcpy2D(o2.data(), W * sizeof(float), out2, op, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  // a device-to-device window copy and back
  float *win; size_t wp;
  CK(cudaMallocPitch(&win, &wp, 77 * sizeof(float), 33));
  CK(cudaMemcpy2D(win, wp, (char *)out2 + 50 * op + 900 * sizeof(float), op, 77 * sizeof(float), 33,
                  cudaMemcpyDeviceToDevice));
  std::vector<float> hw(77 * 33);
  CK(cudaMemcpy2D(hw.data(), 77 * sizeof(float), win, wp, 77 * sizeof(float), 33, cudaMemcpyDeviceToHost));
  // host model
  std::vector<float> img_h((size_t)W * H, 0.0f);
  std::vector<unsigned char> m_h((size_t)W * H, 1);
  for (int y = 0; y < IH; ++y)
    for (int x = 0; x < IW; ++x) img_h[(size_t)(y + 4) * W + x + 8] = interior[(size_t)y * IW + x];
  for (int y = 100; y < 200; ++y)
    for (int x = 300; x < 500; ++x) m_h[(size_t)y * W + x] = 0;
  int bad = 0, badm = 0, hcount = 0;
  double sum = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float v;
      if (m_h[(size_t)y * W + x]) {
        float sacc = 0.0f;
        for (int dy = -R; dy <= R; ++dy)
          for (int dx = -R; dx <= R; ++dx) {
            int gx = x + dx < 0 ? 0 : (x + dx >= W ? W - 1 : x + dx);
            int gy = y + dy < 0 ? 0 : (y + dy >= H ? H - 1 : y + dy);
            sacc = fmaf(hp.w[dy + R][dx + R], img_h[(size_t)gy * W + gx], sacc);
          }
        v = sacc > hp.thresh ? sacc * 2.0f : sacc * 0.5f;
      } else {
        v = img_h[(size_t)y * W + x] * -1.0f;
        ++hcount;
      }
      badm += mo[(size_t)y * W + x] != v;
      bad += o2[(size_t)y * W + x] != v;
      sum += (double)v * (1 + (x + y) % 9);
    }
  for (int y = 0; y < 33; ++y)
    for (int x = 0; x < 77; ++x) bad += hw[y * 77 + x] != o2[(size_t)(y + 50) * W + 900 + x];
  printf("managed stencil: %d wrong; strip stencil and window: %d wrong; holes %d %d (host %d); checksum %.5f\n",
         badm, bad, holes[0], holes[1], hcount, sum);
  fails += badm != 0 || bad != 0 || holes[0] != hcount || holes[1] != hcount;
  CK(cudaFree(mo)); CK(cudaFree(holes)); CK(cudaFree(img)); CK(cudaFree(mask)); CK(cudaFree(out2)); CK(cudaFree(win));
  CK(cudaStreamDestroy(st));
  printf("pitch2d: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
