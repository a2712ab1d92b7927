// Textures, surfaces and pitched 3-D memory in one program: a float image in a CUDA array resampled
// by a rotation through tex2D with linear filtering on normalised, wrapped coordinates; a pitched
// uchar4 image read as normalised floats with point sampling and clamping (a 3x3 box blur); a
// surface written by surf2Dwrite and read back transposed by surf2Dread (zero outside); a
// cudaMalloc3D volume filled by cudaMemcpy3D, a box cleared by cudaMemset3D, a 7-point stencil over
// the pitched volume, a device-to-device cudaMemcpy3D of a sub-box and the result copied back by
// cudaMemcpy3D. Checked against the host (filtered values within the 8-bit weight quantum).
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__global__ void rotate(cudaTextureObject_t tex, float *out, int w, int h, float c, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w - 0.5f, v = (y + 0.5f) / h - 0.5f;
  float ru = c * u - s * v + 0.5f, rv = s * u + c * v + 0.5f;
  out[y * w + x] = tex2D<float>(tex, ru * 1.25f, rv * 1.25f);
}

__global__ void blur(cudaTextureObject_t tex, uchar4 *out, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float4 a = make_float4(0, 0, 0, 0);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      float4 t = tex2D<float4>(tex, x + dx + 0.5f, y + dy + 0.5f);
      a.x += t.x; a.y += t.y; a.z += t.z; a.w += t.w;
    }
  uchar4 r = make_uchar4((unsigned char)(a.x * 255.0f / 9.0f + 0.5f), (unsigned char)(a.y * 255.0f / 9.0f + 0.5f),
                         (unsigned char)(a.z * 255.0f / 9.0f + 0.5f), (unsigned char)(a.w * 255.0f / 9.0f + 0.5f));
  *(uchar4 *)((char *)out + y * pitch + x * 4) = r;
}

__global__ void surfWrite(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  surf2Dwrite(x * 1000 + y, s, x * 4, y);
}

// out[y][x] = surface[x - 3][y + 2] (zero outside)
__global__ void surfTranspose(cudaSurfaceObject_t s, int *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= h || y >= w) return;
  out[y * h + x] = surf2Dread<int>(s, (y - 3) * 4, x + 2, cudaBoundaryModeZero);
}

__global__ void stencil3d(cudaPitchedPtr in, cudaPitchedPtr out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  size_t slice = in.pitch * ny;
  for (int z = 0; z < nz; ++z) {
    const char *base = (const char *)in.ptr + z * slice + y * in.pitch;
    auto at = [&](int dx, int dy, int dz) -> float {
      int xx = x + dx, yy = y + dy, zz = z + dz;
      if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) return 0.0f;
      return *(const float *)((const char *)in.ptr + zz * slice + yy * in.pitch + xx * 4);
    };
    float c = ((const float *)base)[x];
    float r = 0.4f * c + 0.1f * (at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) + at(0, 0, 1));
    *(float *)((char *)out.ptr + z * out.pitch * ny + y * out.pitch + x * 4) = r;
  }
}

static uint64_t bitsum(const void *p, size_t bytes) {
  uint64_t h = 1469598103934665603ull;
  const uint32_t *w = (const uint32_t *)p;
  for (size_t i = 0; i < bytes / 4; ++i) { h ^= w[i]; h *= 1099511628211ull; }
  return h;
}

int main() {
  bool ok = true;
  // 1. rotation through a linearly filtered, wrapped texture
  const int W = 256, H = 192;
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y) for (int x = 0; x < W; ++x) img[y * W + x] = sinf(x * 0.05f) * cosf(y * 0.07f) + ((x / 16 + y / 16) & 1);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &fd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  float *dOut;
  CK(cudaMalloc(&dOut, W * H * 4));
  const float ang = 0.3f, c = cosf(ang), s = sinf(ang);
  rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(tex, dOut, W, H, c, s);
  CK(cudaGetLastError());
  std::vector<float> rot(W * H);
  CK(cudaMemcpy(rot.data(), dOut, W * H * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        float u = (x + 0.5f) / W - 0.5f, v = (y + 0.5f) / H - 0.5f;
        float ru = (c * u - s * v + 0.5f) * 1.25f, rv = (s * u + c * v + 0.5f) * 1.25f;
        double xb = ru * W - 0.5, yb = rv * H - 0.5;
        double fx = floor(xb), fy = floor(yb);
        double a = xb - fx, b = yb - fy;
        auto T = [&](long i, long j) { i = ((i % W) + W) % W; j = ((j % H) + H) % H; return (double)img[j * W + i]; };
        long i0 = (long)fx, j0 = (long)fy;
        double e = (1 - a) * (1 - b) * T(i0, j0) + a * (1 - b) * T(i0 + 1, j0) + (1 - a) * b * T(i0, j0 + 1) + a * b * T(i0 + 1, j0 + 1);
        if (fabs(rot[y * W + x] - e) > 2.5e-2) { if (bad < 4) printf("rotate %d,%d: %g vs %g\n", x, y, rot[y * W + x], e); ++bad; }
      }
    printf("rotate: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(rot.data(), W * H * 4));
    ok &= bad == 0;
  }
  // 2. box blur of a pitched uchar4 image through a normalised-float texture
  const int BW = 200, BH = 120;
  std::vector<uchar4> bimg(BW * BH);
  for (int i = 0; i < BW * BH; ++i) bimg[i] = make_uchar4(i * 7, i * 13 >> 2, (i % BW) ^ (i / BW), 255 - (i & 63));
  uchar4 *dImg, *dBl;
  size_t pin, pout;
  CK(cudaMallocPitch(&dImg, &pin, BW * 4, BH));
  CK(cudaMallocPitch(&dBl, &pout, BW * 4, BH));
  CK(cudaMemcpy2D(dImg, pin, bimg.data(), BW * 4, BW * 4, BH, cudaMemcpyHostToDevice));
  cudaResourceDesc rp = {};
  rp.resType = cudaResourceTypePitch2D;
  rp.res.pitch2D.devPtr = dImg;
  rp.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
  rp.res.pitch2D.width = BW;
  rp.res.pitch2D.height = BH;
  rp.res.pitch2D.pitchInBytes = pin;
  cudaTextureDesc tp = {};
  tp.addressMode[0] = tp.addressMode[1] = cudaAddressModeClamp;
  tp.filterMode = cudaFilterModePoint;
  tp.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t btex;
  CK(cudaCreateTextureObject(&btex, &rp, &tp, nullptr));
  blur<<<dim3((BW + 15) / 16, (BH + 7) / 8), dim3(16, 8)>>>(btex, dBl, pout, BW, BH);
  CK(cudaGetLastError());
  std::vector<uchar4> bl(BW * BH);
  CK(cudaMemcpy2D(bl.data(), BW * 4, dBl, pout, BW * 4, BH, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int y = 0; y < BH; ++y)
      for (int x = 0; x < BW; ++x) {
        int sum[4] = {0, 0, 0, 0};
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int xx = std::min(std::max(x + dx, 0), BW - 1), yy = std::min(std::max(y + dy, 0), BH - 1);
            uchar4 t = bimg[yy * BW + xx];
            sum[0] += t.x; sum[1] += t.y; sum[2] += t.z; sum[3] += t.w;
          }
        uchar4 g = bl[y * BW + x];
        int gv[4] = {g.x, g.y, g.z, g.w};
        for (int k = 0; k < 4; ++k) if (abs(gv[k] - (int)floor(sum[k] / 9.0 + 0.5)) > 1) ++bad;
      }
    printf("blur: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(bl.data(), BW * BH * 4));
    ok &= bad == 0;
  }
  // 3. surfaces
  const int SW = 96, SH = 80;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t sarr;
  CK(cudaMallocArray(&sarr, &id, SW, SH, cudaArraySurfaceLoadStore));
  cudaResourceDesc rs = {};
  rs.resType = cudaResourceTypeArray;
  rs.res.array.array = sarr;
  cudaSurfaceObject_t surf;
  CK(cudaCreateSurfaceObject(&surf, &rs));
  surfWrite<<<dim3(SW / 16, SH / 16), dim3(16, 16)>>>(surf, SW, SH);
  int *dT;
  CK(cudaMalloc(&dT, SW * SH * 4));
  surfTranspose<<<dim3(SH / 16, SW / 16), dim3(16, 16)>>>(surf, dT, SW, SH);
  CK(cudaGetLastError());
  std::vector<int> tr(SW * SH);
  CK(cudaMemcpy(tr.data(), dT, SW * SH * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int y = 0; y < SW; ++y)
      for (int x = 0; x < SH; ++x) {
        int sx = y - 3, sy = x + 2;
        int e = (sx >= 0 && sx < SW && sy < SH) ? sx * 1000 + sy : 0;
        bad += tr[y * SH + x] != e;
      }
    printf("surfaces: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(tr.data(), SW * SH * 4));
    ok &= bad == 0;
  }
  // 4. pitched 3-D volume
  const int NX = 72, NY = 48, NZ = 40;
  std::vector<float> vol(NX * NY * NZ);
  for (int i = 0; i < NX * NY * NZ; ++i) vol[i] = (float)((i * 37) % 101) * 0.25f;
  cudaExtent ext = make_cudaExtent(NX * 4, NY, NZ);
  cudaPitchedPtr dIn, dO3, dCp;
  CK(cudaMalloc3D(&dIn, ext)); CK(cudaMalloc3D(&dO3, ext)); CK(cudaMalloc3D(&dCp, ext));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), NX * 4, NX, NY);
  p.dstPtr = dIn;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  // clear a box x in [8, 24), y in [4, 20), z in [10, 18) of the input
  cudaPitchedPtr box = dIn;
  box.ptr = (char *)dIn.ptr + 10 * dIn.pitch * NY + 4 * dIn.pitch + 8 * 4;
  CK(cudaMemset3D(box, 0, make_cudaExtent(16 * 4, 16, 8)));
  for (int z = 10; z < 18; ++z) for (int y = 4; y < 20; ++y) for (int x = 8; x < 24; ++x) vol[(z * NY + y) * NX + x] = 0;
  stencil3d<<<dim3((NX + 31) / 32, (NY + 7) / 8), dim3(32, 8)>>>(dIn, dO3, NX, NY, NZ);
  CK(cudaGetLastError());
  CK(cudaMemset3D(dCp, 0xff, ext));
  // copy the sub-box x [4, 68), y [2, 46), z [3, 37) of the result to the same place in dCp
  cudaMemcpy3DParms q = {};
  q.srcPtr = dO3; q.dstPtr = dCp;
  q.srcPos = make_cudaPos(4 * 4, 2, 3); q.dstPos = make_cudaPos(4 * 4, 2, 3);
  q.extent = make_cudaExtent(64 * 4, 44, 34);
  q.kind = cudaMemcpyDeviceToDevice;
  CK(cudaMemcpy3D(&q));
  std::vector<float> res(NX * NY * NZ);
  cudaMemcpy3DParms r = {};
  r.srcPtr = dCp;
  r.dstPtr = make_cudaPitchedPtr(res.data(), NX * 4, NX, NY);
  r.extent = ext;
  r.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&r));
  {
    int bad = 0;
    auto V = [&](int x, int y, int z) { return (x < 0 || y < 0 || z < 0 || x >= NX || y >= NY || z >= NZ) ? 0.0f : vol[(z * NY + y) * NX + x]; };
    for (int z = 0; z < NZ; ++z)
      for (int y = 0; y < NY; ++y)
        for (int x = 0; x < NX; ++x) {
          float g = res[(z * NY + y) * NX + x];
          bool inside = x >= 4 && x < 68 && y >= 2 && y < 46 && z >= 3 && z < 37;
          if (!inside) { uint32_t b; memcpy(&b, &g, 4); bad += b != 0xffffffffu; continue; }
          float e = 0.4f * V(x, y, z) + 0.1f * (V(x - 1, y, z) + V(x + 1, y, z) + V(x, y - 1, z) + V(x, y + 1, z) + V(x, y, z - 1) + V(x, y, z + 1));
          if (fabsf(g - e) > 1e-4f * (1 + fabsf(e))) { if (bad < 4) printf("stencil3d %d,%d,%d: %g vs %g\n", x, y, z, g, e); ++bad; }
        }
    printf("volume: pitch %zu, %d wrong, bits %016llx\n", dIn.pitch, bad, (unsigned long long)bitsum(res.data(), res.size() * 4));
    ok &= bad == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
