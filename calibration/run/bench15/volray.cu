// Volume rendering by ray marching: a 64^3 float density in a 3-D CUDA array (cudaMalloc3DArray,
// cudaMemcpy3D) read through a texture object with trilinear filtering on normalised clamped
// coordinates (tex3D), a 16-entry RGBA transfer function in a 1-D CUDA array read by tex1D with
// linear filtering; a thread a pixel of 160x120 intersects the unit box (slab test with float
// divisions), marches front to back compositing colour, and stops early once opaque (a
// data-dependent exit); the steps are summed by atomicAdd. Two views. Checked against the
// host's own trilinear marching within a tolerance (the GPU's filter weights have 8 fraction
// bits); a hash of the image's bits says whether two runs filtered alike. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define V 64
#define IW 160
#define IH 120
#define STEP (1.0f / 96.0f)
#define MAXSTEPS 200

struct Cam { float ox, oy, oz, fx, fy, fz, rx, ry, rz, ux, uy, uz; };

__host__ __device__ bool hitBox(float ox, float oy, float oz, float dx, float dy, float dz, float &t0, float &t1) {
  float ix = 1.0f / dx, iy = 1.0f / dy, iz = 1.0f / dz;
  float ax = (0.0f - ox) * ix, bx = (1.0f - ox) * ix, ay = (0.0f - oy) * iy, by = (1.0f - oy) * iy;
  float az = (0.0f - oz) * iz, bz = (1.0f - oz) * iz;
  t0 = fmaxf(fmaxf(fminf(ax, bx), fminf(ay, by)), fmaxf(fminf(az, bz), 0.0f));
  t1 = fminf(fminf(fmaxf(ax, bx), fmaxf(ay, by)), fmaxf(az, bz));
  return t1 > t0;
}

__global__ void render(cudaTextureObject_t vol, cudaTextureObject_t tf, Cam c, float4 *img, unsigned *steps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= IW || y >= IH) return;
  float u = (x + 0.5f) / IW * 2.0f - 1.0f, v = ((y + 0.5f) / IH * 2.0f - 1.0f) * IH / IW;
  float dx = c.fx + u * c.rx + v * c.ux, dy = c.fy + u * c.ry + v * c.uy, dz = c.fz + u * c.rz + v * c.uz;
  float n = rsqrtf(dx * dx + dy * dy + dz * dz);
  dx *= n; dy *= n; dz *= n;
  float t0, t1;
  float4 acc = make_float4(0, 0, 0, 0);
  int k = 0;
  if (hitBox(c.ox, c.oy, c.oz, dx, dy, dz, t0, t1)) {
    for (float t = t0; t < t1 && k < MAXSTEPS; t += STEP, k++) {
      float d = tex3D<float>(vol, c.ox + t * dx, c.oy + t * dy, c.oz + t * dz);
      float4 s = tex1D<float4>(tf, d);
      float a = s.w * 0.25f, w = (1.0f - acc.w) * a;
      acc.x += w * s.x; acc.y += w * s.y; acc.z += w * s.z; acc.w += w;
      if (acc.w > 0.95f) { k++; break; }
    }
  }
  img[y * IW + x] = acc;
  atomicAdd(steps, (unsigned)k);
}

static float density(int x, int y, int z) {
  float fx = (x + 0.5f) / V, fy = (y + 0.5f) / V, fz = (z + 0.5f) / V;
  float r1 = (fx - 0.4f) * (fx - 0.4f) + (fy - 0.5f) * (fy - 0.5f) + (fz - 0.5f) * (fz - 0.5f);
  float r2 = (fx - 0.7f) * (fx - 0.7f) + (fy - 0.3f) * (fy - 0.3f) + (fz - 0.6f) * (fz - 0.6f);
  float shell = fabsf(sqrtf(r1) - 0.25f);
  return std::min(1.0f, expf(-r2 * 60.0f) + (shell < 0.04f ? 0.6f : 0.0f) + 0.05f * ((x * 7 + y * 3 + z) % 5 == 0));
}

static float lerp(float a, float b, float t) { return a + t * (b - a); }
static float fetch3(const std::vector<float> &d, float u, float v, float w) {
  float c[3] = {u * V - 0.5f, v * V - 0.5f, w * V - 0.5f};
  int i0[3], i1[3]; float f[3];
  for (int a = 0; a < 3; a++) {
    float fl = floorf(c[a]); f[a] = c[a] - fl;
    i0[a] = std::min(std::max((int)fl, 0), V - 1); i1[a] = std::min(std::max((int)fl + 1, 0), V - 1);
  }
  auto at = [&](int x, int y, int z) { return d[(z * V + y) * V + x]; };
  float c00 = lerp(at(i0[0], i0[1], i0[2]), at(i1[0], i0[1], i0[2]), f[0]), c10 = lerp(at(i0[0], i1[1], i0[2]), at(i1[0], i1[1], i0[2]), f[0]);
  float c01 = lerp(at(i0[0], i0[1], i1[2]), at(i1[0], i0[1], i1[2]), f[0]), c11 = lerp(at(i0[0], i1[1], i1[2]), at(i1[0], i1[1], i1[2]), f[0]);
  return lerp(lerp(c00, c10, f[1]), lerp(c01, c11, f[1]), f[2]);
}

int main() {
  std::vector<float> vol(V * V * V);
  for (int z = 0; z < V; z++) for (int y = 0; y < V; y++) for (int x = 0; x < V; x++) vol[(z * V + y) * V + x] = density(x, y, z);
  std::vector<float4> tfh(16);
  for (int i = 0; i < 16; i++) tfh[i] = make_float4(i / 15.0f, 0.5f + 0.5f * sinf(i * 0.7f), 1.0f - i / 15.0f, i < 2 ? 0.0f : (i / 15.0f) * (i / 15.0f));
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), f4 = cudaCreateChannelDesc<float4>();
  cudaArray_t a3, a1;
  CK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(V, V, V)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), V * sizeof(float), V, V);
  p.dstArray = a3; p.extent = make_cudaExtent(V, V, V); p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  CK(cudaMallocArray(&a1, &f4, 16));
  CK(cudaMemcpy2DToArray(a1, 0, 0, tfh.data(), 16 * sizeof(float4), 16 * sizeof(float4), 1, cudaMemcpyHostToDevice));
  cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray;
  cudaTextureDesc t = {};
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = cudaAddressModeClamp;
  t.filterMode = cudaFilterModeLinear; t.readMode = cudaReadModeElementType; t.normalizedCoords = 1;
  cudaTextureObject_t tv, tt;
  r.res.array.array = a3; CK(cudaCreateTextureObject(&tv, &r, &t, nullptr));
  r.res.array.array = a1; CK(cudaCreateTextureObject(&tt, &r, &t, nullptr));
  float4 *dImg; unsigned *dSteps;
  CK(cudaMalloc(&dImg, IW * IH * sizeof(float4))); CK(cudaMalloc(&dSteps, sizeof(unsigned)));
  bool ok = true;
  for (int view = 0; view < 2; view++) {
    float ang = 0.6f + 1.3f * view;
    Cam c;
    c.ox = 0.5f + 1.6f * cosf(ang); c.oy = 0.5f + 0.4f * view; c.oz = 0.5f + 1.6f * sinf(ang);
    float fx = 0.5f - c.ox, fy = 0.5f - c.oy, fz = 0.5f - c.oz, fn = 1.0f / sqrtf(fx * fx + fy * fy + fz * fz);
    c.fx = fx * fn; c.fy = fy * fn; c.fz = fz * fn;
    float rx = -c.fz, rz = c.fx, rn = 0.6f / sqrtf(rx * rx + rz * rz);
    c.rx = rx * rn; c.ry = 0; c.rz = rz * rn;
    c.ux = (c.ry * c.fz - c.rz * c.fy); c.uy = (c.rz * c.fx - c.rx * c.fz); c.uz = (c.rx * c.fy - c.ry * c.fx);
    CK(cudaMemset(dSteps, 0, sizeof(unsigned)));
    render<<<dim3((IW + 15) / 16, (IH + 7) / 8), dim3(16, 8)>>>(tv, tt, c, dImg, dSteps);
    CK(cudaGetLastError());
    std::vector<float4> img(IW * IH); unsigned steps;
    CK(cudaMemcpy(img.data(), dImg, img.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&steps, dSteps, sizeof steps, cudaMemcpyDeviceToHost));
    // host marching with exact weights
    int bad = 0; double sum = 0; unsigned hsteps = 0, hash = 2166136261u;
    for (auto &g : img) for (float f : {g.x, g.y, g.z, g.w}) { unsigned b; memcpy(&b, &f, 4); hash = (hash ^ b) * 16777619u; }
    for (int y = 0; y < IH; y++)
      for (int x = 0; x < IW; x++) {
        float u = (x + 0.5f) / IW * 2.0f - 1.0f, v = ((y + 0.5f) / IH * 2.0f - 1.0f) * IH / IW;
        float dx = c.fx + u * c.rx + v * c.ux, dy = c.fy + u * c.ry + v * c.uy, dz = c.fz + u * c.rz + v * c.uz;
        float n = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
        dx *= n; dy *= n; dz *= n;
        float t0, t1, ax = 0, ay = 0, az = 0, aw = 0; int k = 0;
        if (hitBox(c.ox, c.oy, c.oz, dx, dy, dz, t0, t1))
          for (float tt2 = t0; tt2 < t1 && k < MAXSTEPS; tt2 += STEP, k++) {
            float d = fetch3(vol, c.ox + tt2 * dx, c.oy + tt2 * dy, c.oz + tt2 * dz);
            float g = std::min(std::max(d * 16 - 0.5f, 0.0f), 15.0f); int g0 = (int)floorf(g), g1 = std::min(g0 + 1, 15); float gf = g - g0;
            float sx = lerp(tfh[g0].x, tfh[g1].x, gf), sy = lerp(tfh[g0].y, tfh[g1].y, gf), sz = lerp(tfh[g0].z, tfh[g1].z, gf), sw = lerp(tfh[g0].w, tfh[g1].w, gf);
            float w = (1.0f - aw) * sw * 0.25f;
            ax += w * sx; ay += w * sy; az += w * sz; aw += w;
            if (aw > 0.95f) { k++; break; }
          }
        hsteps += k;
        float4 g = img[y * IW + x];
        sum += g.x + g.y + g.z + g.w;
        if (fabsf(g.x - ax) > 0.03f || fabsf(g.y - ay) > 0.03f || fabsf(g.z - az) > 0.03f || fabsf(g.w - aw) > 0.03f) bad++;
      }
    printf("view %d: colour sum %.2f, image bits hash %08x, %u steps (host %u), %d of %d pixels off by more than 0.03\n", view, sum, hash, steps, hsteps, bad, IW * IH);
    ok = ok && bad <= IW * IH / 200 && fabs((double)steps - hsteps) < 0.01 * hsteps;
  }
  printf("volray: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
