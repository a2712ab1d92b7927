// raytrace.cu (calibration/run/bench10) with one addition: every lane stores its __activemask() at
// the entry of trace()'s sphere side (after the floor/background tests, before the hit point) and of
// its floor side, per bounce, into amS/amF[bounce][pixel] (0: not reached; cleared each frame). The host prints,
// per frame, bounce and warp, the distinct masks the warp's lanes recorded (one mask: the lanes that
// reached that side in that bounce ran it as one group; two or more: as that many groups).
// A small ray caster: a pixel a thread, a ray through the pixel tested against 24 spheres held in
// __constant__ memory (a discriminant test, `sqrtf`, the nearer root, a data-dependent nearest hit),
// the hit's normal by a float division by the radius, then a shadow ray toward each of two lights
// that leaves the sphere loop at the first blocker (`break`), Lambert shading, a reflection bounce
// for mirror spheres (a second nearest-hit loop) and a checkerboard floor by `floorf`; 8-bit
// pixels, a histogram of them by shared atomics. Two frames (the camera moves). The host renders
// the same frames; pixels may differ by a little where float contraction moves an edge, so the
// host allows 1 % of pixels off by more than 2 and checks the checksums the GPU prints.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define NS 24
#define W 240
#define H 160

struct Sphere { float x, y, z, r, shade, mirror; };
__constant__ Sphere sph[NS];
__constant__ float light[2][3];

__host__ __device__ inline int nearest(const Sphere *s, float ox, float oy, float oz, float dx, float dy,
                                       float dz, float &tbest) {
  int hit = -1;
  for (int k = 0; k < NS; ++k) {
    float lx = ox - s[k].x, ly = oy - s[k].y, lz = oz - s[k].z;
    float b = lx * dx + ly * dy + lz * dz;
    float c = lx * lx + ly * ly + lz * lz - s[k].r * s[k].r;
    float disc = b * b - c;
    if (disc < 0.f) continue;
    float t = -b - sqrtf(disc);
    if (t > 1e-3f && t < tbest) { tbest = t; hit = k; }
  }
  return hit;
}

__host__ __device__ inline float shadeAt(const Sphere *s, const float (*li)[3], float px, float py, float pz,
                                         float nx, float ny, float nz) {
  float sum = 0.1f;
  for (int l = 0; l < 2; ++l) {
    float lx = li[l][0] - px, ly = li[l][1] - py, lz = li[l][2] - pz;
    float d = sqrtf(lx * lx + ly * ly + lz * lz);
    lx /= d; ly /= d; lz /= d;
    float cosv = nx * lx + ny * ly + nz * lz;
    if (cosv <= 0.f) continue;
    bool blocked = false;
    for (int k = 0; k < NS; ++k) {
      float ox = px - s[k].x, oy = py - s[k].y, oz = pz - s[k].z;
      float b = ox * lx + oy * ly + oz * lz;
      float c = ox * ox + oy * oy + oz * oz - s[k].r * s[k].r;
      float disc = b * b - c;
      if (disc > 0.f && -b - sqrtf(disc) > 1e-3f && -b - sqrtf(disc) < d) { blocked = true; break; }
    }
    if (!blocked) sum += 0.45f * cosv;
  }
  return sum;
}

__host__ __device__ inline float trace(const Sphere *s, const float (*li)[3], float ox, float oy, float oz,
                                       float dx, float dy, float dz, unsigned *amS = nullptr,
                                       unsigned *amF = nullptr) {
  float result = 0.f, weight = 1.f;
  for (int bounce = 0; bounce < 2; ++bounce) {
    float t = 1e30f;
    int k = nearest(s, ox, oy, oz, dx, dy, dz, t);
    float floorT = dy < 0.f ? (-1.f - oy) / dy : 1e30f;
    if (k < 0 && floorT >= 1e30f) { result += weight * 0.2f; break; }
    if (k < 0 || floorT < t) {
#ifdef __CUDA_ARCH__
      amF[bounce * W * H] = __activemask();
#endif
      float px = ox + dx * floorT, pz = oz + dz * floorT;
      int check = ((int)floorf(px) + (int)floorf(pz)) & 1;
      result += weight * (check ? 0.9f : 0.3f) * shadeAt(s, li, px, -1.f, pz, 0.f, 1.f, 0.f);
      break;
    }
#ifdef __CUDA_ARCH__
    amS[bounce * W * H] = __activemask();
#endif
    float px = ox + dx * t, py = oy + dy * t, pz = oz + dz * t;
    float nx = (px - s[k].x) / s[k].r, ny = (py - s[k].y) / s[k].r, nz = (pz - s[k].z) / s[k].r;
    float local = s[k].shade * shadeAt(s, li, px, py, pz, nx, ny, nz);
    result += weight * (1.f - s[k].mirror) * local;
    if (s[k].mirror == 0.f) break;
    weight *= s[k].mirror;
    float dn = dx * nx + dy * ny + dz * nz;
    dx -= 2.f * dn * nx; dy -= 2.f * dn * ny; dz -= 2.f * dn * nz;
    ox = px; oy = py; oz = pz;
  }
  return result;
}

__global__ void render(float camZ, unsigned char *img, unsigned *hist, unsigned *amS, unsigned *amF) {
  __shared__ unsigned h[64];
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid < 64) h[tid] = 0;
  __syncthreads();
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    float dx = (x - W * 0.5f) / H, dy = (H * 0.5f - y) / H, dz = 1.f;
    float inv = 1.f / sqrtf(dx * dx + dy * dy + dz * dz);
    float v = trace(sph, light, 0.f, 0.5f, camZ, dx * inv, dy * inv, dz * inv, amS + y * W + x, amF + y * W + x);
    int p = min(255, (int)(v * 255.f));
    img[y * W + x] = (unsigned char)p;
    atomicAdd(&h[p >> 2], 1u);
  }
  __syncthreads();
  if (tid < 64 && h[tid]) atomicAdd(&hist[tid], h[tid]);
}

int main() {
  Sphere hs[NS];
  unsigned s = 555u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (float)((s >> 8) & 0xffff) / 65536.f; };
  for (int k = 0; k < NS; ++k) {
    hs[k].r = 0.3f + rnd() * 0.7f;
    hs[k].x = rnd() * 10.f - 5.f; hs[k].z = 4.f + rnd() * 12.f; hs[k].y = -1.f + hs[k].r + (k % 4 == 0 ? rnd() : 0.f);
    hs[k].shade = 0.4f + rnd() * 0.6f; hs[k].mirror = k % 5 == 0 ? 0.6f : 0.f;
  }
  float hl[2][3] = {{-6.f, 8.f, 0.f}, {5.f, 5.f, 3.f}};
  CK(cudaMemcpyToSymbol(sph, hs, sizeof hs));
  CK(cudaMemcpyToSymbol(light, hl, sizeof hl));
  unsigned char *dimg; unsigned *dh;
  CK(cudaMalloc(&dimg, W * H)); CK(cudaMalloc(&dh, 64 * 4));
  unsigned *dS, *dF;
  CK(cudaMalloc(&dS, 2 * W * H * 4)); CK(cudaMalloc(&dF, 2 * W * H * 4));
  int bad = 0;
  for (int f = 0; f < 2; ++f) {
    float camZ = f == 0 ? -2.f : 1.5f;
    CK(cudaMemset(dh, 0, 64 * 4));
    CK(cudaMemset(dS, 0, 2 * W * H * 4)); CK(cudaMemset(dF, 0, 2 * W * H * 4));
    render<<<dim3((W + 15) / 16, (H + 7) / 8), dim3(16, 8)>>>(camZ, dimg, dh, dS, dF);
    CK(cudaGetLastError());
    std::vector<unsigned char> img(W * H); unsigned hist[64];
    CK(cudaMemcpy(img.data(), dimg, W * H, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hist, dh, 256, cudaMemcpyDeviceToHost));
    int off = 0; unsigned long long sum = 0, mix = 0; unsigned hs2 = 0;
    unsigned hcount[64] = {0};
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        float dx = (x - W * 0.5f) / H, dy = (H * 0.5f - y) / H, dz = 1.f;
        float inv = 1.f / sqrtf(dx * dx + dy * dy + dz * dz);
        float v = trace(hs, hl, 0.f, 0.5f, camZ, dx * inv, dy * inv, dz * inv);
        int p = std::min(255, (int)(v * 255.f));
        unsigned char g = img[y * W + x];
        off += abs(p - g) > 2;
        sum += g; mix = mix * 1099511628211ull + g;
        hcount[g >> 2]++;
      }
    for (int k = 0; k < 64; ++k) { bad += hist[k] != hcount[k]; hs2 = hs2 * 31u + hist[k]; }
    bad += off > W * H / 100;
    {
      // per warp (block (bx, by), warp 0..3 of the 16x8 block: rows 2w, 2w+1), per bounce: the
      // distinct masks its lanes recorded at each side
      std::vector<unsigned> s(2 * W * H), fl(2 * W * H);
      CK(cudaMemcpy(s.data(), dS, 2 * W * H * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(fl.data(), dF, 2 * W * H * 4, cudaMemcpyDeviceToHost));
      for (int by = 0; by < H / 8; ++by)
        for (int bx = 0; bx < W / 16; ++bx)
          for (int w = 0; w < 4; ++w)
            for (int b = 0; b < 2; ++b)
              for (int side = 0; side < 2; ++side) {
                const std::vector<unsigned> &a = side ? fl : s;
                unsigned seen[32]; int n = 0;
                for (int l = 0; l < 32; ++l) {
                  int yy = by * 8 + w * 2 + l / 16, xx = bx * 16 + l % 16;
                  unsigned m = a[b * W * H + yy * W + xx];
                  if (!m) continue;
                  bool dup = false;
                  for (int q = 0; q < n; ++q) dup |= seen[q] == m;
                  if (!dup) seen[n++] = m;
                }
                if (!n) continue;
                printf("am frame %d block %d,%d warp %d bounce %d %s groups %d:", f, bx, by, w, b,
                       side ? "floor" : "sphere", n);
                for (int q = 0; q < n; ++q) printf(" %08x", seen[q]);
                printf("\n");
              }
    }
    printf("raytrace frame %d: pixel sum %llu, mix %016llx, histogram %08x, %d pixels off the host's\n", f, sum, mix, hs2, off);
  }
  printf("raytrace %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
