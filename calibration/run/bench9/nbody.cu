// All-pairs gravitational N-body: positions and masses as `float4`, tiles of 128 bodies staged in
// shared memory, `rsqrtf` of the softened distance, an unrolled inner loop over the tile, a body
// count that is not a multiple of the tile (the last tile padded with massless bodies), a
// leapfrog step in a second kernel, and the system's energy, momentum and centre of mass in double
// by a block reduction of per-body terms (the host adds the blocks in order).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define TILE 128
#define EPS2 0.01f

__global__ void forces(const float4 *pos, float3 *acc, int n) {
  __shared__ float4 sh[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t = 0; t < n; t += TILE) {
    int j = t + threadIdx.x;
    sh[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < TILE; ++k) {
      float4 o = sh[k];
      float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      float r2 = dx * dx + dy * dy + dz * dz + EPS2;
      float inv = rsqrtf(r2);
      float s = o.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float3(ax, ay, az);
}

__global__ void leapfrog(float4 *pos, float3 *vel, const float3 *acc, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 v = vel[i], a = acc[i];
  v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
  float4 p = pos[i];
  p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
  vel[i] = v; pos[i] = p;
}

__global__ void moments(const float4 *pos, const float3 *vel, double *out, int n) {
  __shared__ double sh[4][128];
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  double ke = 0, px = 0, cx = 0, m = 0;
  if (i < n) {
    float4 p = pos[i]; float3 v = vel[i];
    m = p.w; ke = 0.5 * p.w * ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    px = p.w * (double)v.x; cx = p.w * (double)p.x;
  }
  sh[0][t] = ke; sh[1][t] = px; sh[2][t] = cx; sh[3][t] = m;
  __syncthreads();
  for (int o = 64; o > 0; o >>= 1) {
    if (t < o)
      for (int q = 0; q < 4; ++q) sh[q][t] += sh[q][t + o];
    __syncthreads();
  }
  if (t < 4) out[blockIdx.x * 4 + t] = sh[t][0];
}

int main() {
  const int n = 1000, steps = 6, nb = (n + TILE - 1) / TILE;
  const float dt = 0.005f;
  std::vector<float4> p(n); std::vector<float3> v(n);
  unsigned s = 4242;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (float)(s >> 8) / 16777216.f; };
  for (int i = 0; i < n; ++i) {
    p[i] = make_float4(rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1, 0.5f + rnd());
    v[i] = make_float3(0.1f * (rnd() - 0.5f), 0.1f * (rnd() - 0.5f), 0.f);
  }
  float4 *dp; float3 *dv, *da; double *dm;
  CK(cudaMalloc(&dp, n * 16)); CK(cudaMalloc(&dv, n * 12)); CK(cudaMalloc(&da, n * 12)); CK(cudaMalloc(&dm, nb * 32));
  CK(cudaMemcpy(dp, p.data(), n * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, v.data(), n * 12, cudaMemcpyHostToDevice));
  std::vector<float4> hp = p; std::vector<float3> hv = v;
  for (int st = 0; st < steps; ++st) {
    forces<<<nb, TILE>>>(dp, da, n);
    leapfrog<<<nb, TILE>>>(dp, dv, da, n, dt);
  }
  moments<<<nb, 128>>>(dp, dv, dm, n);
  CK(cudaGetLastError());
  std::vector<double> mom(nb * 4);
  CK(cudaMemcpy(mom.data(), dm, nb * 32, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p.data(), dp, n * 16, cudaMemcpyDeviceToHost));
  // host in double
  for (int st = 0; st < steps; ++st) {
    std::vector<double> a(3 * n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double dx = hp[j].x - hp[i].x, dy = hp[j].y - hp[i].y, dz = hp[j].z - hp[i].z;
        double r2 = dx * dx + dy * dy + dz * dz + EPS2, inv = 1 / sqrt(r2), sc = hp[j].w * inv * inv * inv;
        a[3 * i] += dx * sc; a[3 * i + 1] += dy * sc; a[3 * i + 2] += dz * sc;
      }
    for (int i = 0; i < n; ++i) {
      hv[i].x += a[3 * i] * dt; hv[i].y += a[3 * i + 1] * dt; hv[i].z += a[3 * i + 2] * dt;
      hp[i].x += hv[i].x * dt; hp[i].y += hv[i].y * dt; hp[i].z += hv[i].z * dt;
    }
  }
  int bad = 0;
  double cs = 0;
  for (int i = 0; i < n; ++i) {
    bad += fabs(p[i].x - hp[i].x) > 1e-3 || fabs(p[i].y - hp[i].y) > 1e-3 || fabs(p[i].z - hp[i].z) > 1e-3;
    cs += p[i].x + 2 * p[i].y + 3 * p[i].z;
  }
  double ke = 0, px = 0, cx = 0, m = 0;
  for (int b = 0; b < nb; ++b) { ke += mom[4 * b]; px += mom[4 * b + 1]; cx += mom[4 * b + 2]; m += mom[4 * b + 3]; }
  printf("nbody n=%d steps %d: position checksum %.6f kinetic %.9e momentum x %.9e centre x %.9e\n",
         n, steps, cs, ke, px, cx / m);
  printf("nbody %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
