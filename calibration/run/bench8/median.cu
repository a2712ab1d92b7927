// Per-thread local arrays and layouts: a 5x5 median filter whose window (25 floats) is sorted in
// a local array by insertion sort with run-time indices (LDL/STL), the floats ordered through a
// union as integer keys; a 3x3 median by a partial selection; a particle update over an array of
// structures (a struct with a union member) against the same over a structure of arrays; and a
// strided gather whose index is computed in 64 bits (size_t pitch times row, a long long stride).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define IW 80
#define IH 56

union Key { float f; unsigned u; int i; };

__host__ __device__ unsigned orderKey(float f) {
  Key k;
  k.f = f;
  return (k.i < 0) ? ~k.u : (k.u | 0x80000000u);
}

__host__ __device__ float median25(const float *img, int x, int y, int w, int h) {
  unsigned win[25];
  int n = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int xx = x + dx, yy = y + dy;
      xx = xx < 0 ? -xx : (xx >= w ? 2 * w - 2 - xx : xx);
      yy = yy < 0 ? -yy : (yy >= h ? 2 * h - 2 - yy : yy);
      unsigned k = orderKey(img[yy * w + xx]);
      int j = n++;
      while (j > 0 && win[j - 1] > k) { win[j] = win[j - 1]; --j; }
      win[j] = k;
    }
  Key out;
  unsigned m = win[12];
  out.u = (m & 0x80000000u) ? (m & 0x7fffffffu) : ~m;
  return out.f;
}

__global__ void median5K(const float *img, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = median25(img, x, y, w, h);
}

__host__ __device__ float median9(const float *img, int x, int y, int w, int h) {
  float v[9];
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
      v[n++] = img[yy * w + xx];
    }
  // selection of the 5 smallest
  for (int i = 0; i < 5; ++i) {
    int b = i;
    for (int j = i + 1; j < 9; ++j)
      if (v[j] < v[b]) b = j;
    float t = v[i]; v[i] = v[b]; v[b] = t;
  }
  return v[4];
}

__global__ void median3K(const float *img, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = median9(img, x, y, w, h);
}

struct Particle {
  float x, y, z;
  union { int id; float mass; } tag;
  short kind;
  char flags;
};

__global__ void aosK(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle q = p[i];
  if (q.flags & 1) {
    q.x += dt * q.tag.mass;
    q.y -= dt * q.z;
  } else {
    q.z += dt * (float)(q.tag.id & 7);
    q.kind = (short)(q.kind + 1);
  }
  p[i] = q;
}

__global__ void soaK(float *x, float *y, float *z, int *tag, short *kind, char *flags, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (flags[i] & 1) {
    x[i] += dt * __int_as_float(tag[i]);
    y[i] -= dt * z[i];
  } else {
    z[i] += dt * (float)(tag[i] & 7);
    kind[i] = (short)(kind[i] + 1);
  }
}

__global__ void gather64K(const float *base, size_t pitch, long long stride, int rows, float *out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)rows * 32) return;
  size_t row = (size_t)(t >> 5);
  long long col = (t & 31) * stride;
  const float *p = (const float *)((const char *)base + row * pitch) + col;
  out[t] = *p + (float)(row & 3);
}

int main() {
  float *img = (float *)malloc(IW * IH * 4), *o5 = (float *)malloc(IW * IH * 4), *o3 = (float *)malloc(IW * IH * 4);
  unsigned r = 11;
  for (int i = 0; i < IW * IH; ++i) {
    r = r * 1664525u + 1013904223u;
    img[i] = ((int)(r >> 16) % 2000 - 1000) / 37.0f;
    if (i % 97 == 0) img[i] = -0.0f;
  }
  float *di, *d5, *d3;
  cudaMalloc(&di, IW * IH * 4); cudaMalloc(&d5, IW * IH * 4); cudaMalloc(&d3, IW * IH * 4);
  cudaMemcpy(di, img, IW * IH * 4, cudaMemcpyHostToDevice);
  dim3 b(16, 8), g((IW + 15) / 16, (IH + 7) / 8);
  median5K<<<g, b>>>(di, d5, IW, IH);
  median3K<<<g, b>>>(di, d3, IW, IH);
  cudaMemcpy(o5, d5, IW * IH * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(o3, d3, IW * IH * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  double cs = 0;
  for (int y = 0; y < IH; ++y)
    for (int x = 0; x < IW; ++x) {
      if (o5[y * IW + x] != median25(img, x, y, IW, IH)) ++bad;
      if (o3[y * IW + x] != median9(img, x, y, IW, IH)) ++bad;
      cs += o5[y * IW + x] * 3 + o3[y * IW + x];
    }
  printf("median: checksum %.6f\n", cs);
  // particles
  const int NP = 1000;
  Particle *hp = (Particle *)malloc(sizeof(Particle) * NP);
  float *hx = (float *)malloc(NP * 4), *hy = (float *)malloc(NP * 4), *hz = (float *)malloc(NP * 4);
  int *ht = (int *)malloc(NP * 4);
  short *hk = (short *)malloc(NP * 2);
  char *hf = (char *)malloc(NP);
  for (int i = 0; i < NP; ++i) {
    hp[i].x = hx[i] = i * 0.5f; hp[i].y = hy[i] = 100.0f - i * 0.25f; hp[i].z = hz[i] = (i % 13) * 1.5f;
    hp[i].flags = hf[i] = (char)((i * 7) % 3 == 0);
    if (hp[i].flags) hp[i].tag.mass = 1.0f + (i % 5); else hp[i].tag.id = i;
    ht[i] = hp[i].tag.id;
    hp[i].kind = hk[i] = (short)(i % 4);
  }
  Particle *dp;
  float *dx, *dy, *dz;
  int *dt;
  short *dk;
  char *df;
  cudaMalloc(&dp, sizeof(Particle) * NP);
  cudaMalloc(&dx, NP * 4); cudaMalloc(&dy, NP * 4); cudaMalloc(&dz, NP * 4); cudaMalloc(&dt, NP * 4);
  cudaMalloc(&dk, NP * 2); cudaMalloc(&df, NP);
  cudaMemcpy(dp, hp, sizeof(Particle) * NP, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hx, NP * 4, cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, NP * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dz, hz, NP * 4, cudaMemcpyHostToDevice); cudaMemcpy(dt, ht, NP * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, hk, NP * 2, cudaMemcpyHostToDevice); cudaMemcpy(df, hf, NP, cudaMemcpyHostToDevice);
  aosK<<<(NP + 127) / 128, 128>>>(dp, NP, 0.125f);
  soaK<<<(NP + 127) / 128, 128>>>(dx, dy, dz, dt, dk, df, NP, 0.125f);
  cudaMemcpy(hp, dp, sizeof(Particle) * NP, cudaMemcpyDeviceToHost);
  cudaMemcpy(hx, dx, NP * 4, cudaMemcpyDeviceToHost); cudaMemcpy(hy, dy, NP * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hz, dz, NP * 4, cudaMemcpyDeviceToHost); cudaMemcpy(hk, dk, NP * 2, cudaMemcpyDeviceToHost);
  double pcs = 0;
  for (int i = 0; i < NP; ++i) {
    if (hp[i].x != hx[i] || hp[i].y != hy[i] || hp[i].z != hz[i] || hp[i].kind != hk[i]) ++bad;
    pcs += hx[i] + 2 * hy[i] + 3 * hz[i] + hk[i];
  }
  printf("particles: checksum %.6f\n", pcs);
  // 64-bit indexing: rows of pitch 4352 bytes, 32 columns at a stride of 34 floats
  const int rows = 24;
  size_t pitch = 4352;
  long long stride = 34;
  float *hb = (float *)malloc(rows * pitch), *hg = (float *)malloc(rows * 32 * 4);
  for (size_t i = 0; i < rows * pitch / 4; ++i) hb[i] = (float)(i % 1009);
  float *db, *dg;
  cudaMalloc(&db, rows * pitch); cudaMalloc(&dg, rows * 32 * 4);
  cudaMemcpy(db, hb, rows * pitch, cudaMemcpyHostToDevice);
  gather64K<<<(rows * 32 + 95) / 96, 96>>>(db, pitch, stride, rows, dg);
  cudaMemcpy(hg, dg, rows * 32 * 4, cudaMemcpyDeviceToHost);
  for (int t = 0; t < rows * 32; ++t) {
    size_t row = t >> 5;
    float want = hb[row * pitch / 4 + (t & 31) * stride] + (float)(row & 3);
    if (hg[t] != want) ++bad;
  }
  printf("median %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
