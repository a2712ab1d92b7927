// Structures of arrays and arrays of structures with 16-byte vector accesses: alignas(16) particle
// records read as float4 pairs, a structure of arrays read through __ldg on const __restrict__
// pointers, streaming loads and stores (__ldcs / __stcs) of int4 and double2, and a compile-time
// unrolled (template recursion) polynomial and 8-point stencil. Results checked against the host
// (exact where the operations are, within a tolerance otherwise); bit checksums printed.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

struct alignas(16) Particle {
  float x, y, z, m;
  float vx, vy, vz, q;
};

struct SoA {
  const float *__restrict__ x, *__restrict__ y, *__restrict__ z, *__restrict__ m;
};

template <int N>
struct Horner {
  template <typename T>
  __host__ __device__ static T eval(const T *c, T x) { return Horner<N - 1>::eval(c, x) * x + c[N]; }
};
template <>
struct Horner<0> {
  template <typename T>
  __host__ __device__ static T eval(const T *c, T) { return c[0]; }
};

template <int K>
struct Stencil {
  __device__ static int sum(const int *s, int i) { return s[i + K] * (K + 1) + Stencil<K - 1>::sum(s, i); }
};
template <>
struct Stencil<-1> {
  __device__ static int sum(const int *, int) { return 0; }
};

__constant__ float polyF[8];
__constant__ double polyD[6];

// AoS: each particle moved by its velocity and a potential of its charge
__global__ void stepAoS(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 *v = reinterpret_cast<float4 *>(p + i);
  float4 a = v[0], b = v[1];
  float r2 = a.x * a.x + a.y * a.y + a.z * a.z + 1.0f;
  float f = b.w * Horner<7>::eval(polyF, 1.0f / r2);
  b.x -= f * a.x * dt; b.y -= f * a.y * dt; b.z -= f * a.z * dt;
  a.x += b.x * dt; a.y += b.y * dt; a.z += b.z * dt;
  v[0] = a;
  v[1] = b;
}

// SoA: moment sums of a block's particles about the origin through read-only loads
__global__ void momentsSoA(SoA s, float4 *out, int n) {
  __shared__ float4 part[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 acc = make_float4(0, 0, 0, 0);
  if (i < n) {
    float m = __ldg(s.m + i);
    acc = make_float4(m * __ldg(s.x + i), m * __ldg(s.y + i), m * __ldg(s.z + i), m);
  }
  for (int o = 16; o > 0; o >>= 1) {
    acc.x += __shfl_down_sync(0xffffffffu, acc.x, o);
    acc.y += __shfl_down_sync(0xffffffffu, acc.y, o);
    acc.z += __shfl_down_sync(0xffffffffu, acc.z, o);
    acc.w += __shfl_down_sync(0xffffffffu, acc.w, o);
  }
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float4 t = part[0];
    for (int w = 1; w < blockDim.x / 32; ++w) { t.x += part[w].x; t.y += part[w].y; t.z += part[w].z; t.w += part[w].w; }
    out[blockIdx.x] = t;
  }
}

// int4 streaming: an 8-point weighted stencil over a padded row (shared), written with __stcs
__global__ void stencilInt4(const int4 *in, int4 *out, int n4) {
  __shared__ int s[4 * 256 + 8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 v = i < n4 ? __ldcs(in + i) : make_int4(0, 0, 0, 0);
  int b = 4 * threadIdx.x;
  s[b] = v.x; s[b + 1] = v.y; s[b + 2] = v.z; s[b + 3] = v.w;
  if (threadIdx.x < 2) {
    int j = blockIdx.x * blockDim.x + blockDim.x + threadIdx.x;
    int4 w = j < n4 ? __ldcs(in + j) : make_int4(0, 0, 0, 0);
    int c = 4 * (blockDim.x + threadIdx.x);
    s[c] = w.x; s[c + 1] = w.y; s[c + 2] = w.z; s[c + 3] = w.w;
  }
  __syncthreads();
  if (i < n4) {
    int4 r;
    r.x = Stencil<7>::sum(s, b);
    r.y = Stencil<7>::sum(s, b + 1);
    r.z = Stencil<7>::sum(s, b + 2);
    r.w = Stencil<7>::sum(s, b + 3);
    __stcs(out + i, r);
  }
}

// double2: complex multiply-accumulate of a row by a polynomial of the row index
__global__ void complexRows(const double2 *a, const double2 *b, double2 *c, int cols) {
  int row = blockIdx.y;
  double t = Horner<5>::eval(polyD, (double)row / gridDim.y);
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += gridDim.x * blockDim.x) {
    double2 x = __ldcs(a + (size_t)row * cols + j), y = __ldg(b + j);
    double2 z;
    z.x = (x.x * y.x - x.y * y.y) * t;
    z.y = (x.x * y.y + x.y * y.x) * t;
    __stcs(c + (size_t)row * cols + j, z);
  }
}

static uint64_t bitsum(const void *p, size_t bytes) {
  uint64_t h = 1469598103934665603ull;
  const uint32_t *w = (const uint32_t *)p;
  for (size_t i = 0; i < bytes / 4; ++i) { h ^= w[i]; h *= 1099511628211ull; }
  return h;
}

int main() {
  const int n = 1 << 17;
  float hpf[8] = {0.5f, -0.25f, 0.125f, 0.75f, -0.5f, 0.25f, 1.0f, 0.1f};
  double hpd[6] = {1.0, -0.5, 0.25, 0.125, -0.0625, 2.0};
  CK(cudaMemcpyToSymbol(polyF, hpf, sizeof hpf));
  CK(cudaMemcpyToSymbol(polyD, hpd, sizeof hpd));
  std::vector<Particle> hp(n);
  unsigned s = 5;
  auto u = [&]() { s = s * 1664525u + 1013904223u; return (float)(s >> 8) / 16777216.0f - 0.5f; };
  for (auto &p : hp) p = {u() * 10, u() * 10, u() * 10, u() + 1.0f, u(), u(), u(), u() * 4};
  Particle *dP;
  CK(cudaMalloc(&dP, n * sizeof(Particle)));
  CK(cudaMemcpy(dP, hp.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
  bool ok = true;
  const float dt = 0.01f;
  for (int it = 0; it < 4; ++it) stepAoS<<<n / 256, 256>>>(dP, n, dt);
  CK(cudaGetLastError());
  std::vector<Particle> rp(n);
  CK(cudaMemcpy(rp.data(), dP, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      double x = hp[i].x, y = hp[i].y, z = hp[i].z, vx = hp[i].vx, vy = hp[i].vy, vz = hp[i].vz, q = hp[i].q;
      for (int it = 0; it < 4; ++it) {
        double r2 = x * x + y * y + z * z + 1.0, f = q * Horner<7>::eval<double>(std::vector<double>(hpf, hpf + 8).data(), 1.0 / r2);
        vx -= f * x * dt; vy -= f * y * dt; vz -= f * z * dt;
        x += vx * dt; y += vy * dt; z += vz * dt;
      }
      double e[6] = {x, y, z, vx, vy, vz}, g[6] = {rp[i].x, rp[i].y, rp[i].z, rp[i].vx, rp[i].vy, rp[i].vz};
      for (int k = 0; k < 6; ++k) if (fabs(e[k] - g[k]) > 1e-4 * fabs(e[k]) + 1e-5) { if (bad < 4) printf("AoS %d.%d: %g vs %g\n", i, k, g[k], e[k]); ++bad; }
    }
    printf("stepAoS: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(rp.data(), n * sizeof(Particle)));
    ok &= bad == 0;
  }
  // SoA of the moved particles
  std::vector<float> sx(n), sy(n), sz(n), sm(n);
  for (int i = 0; i < n; ++i) { sx[i] = rp[i].x; sy[i] = rp[i].y; sz[i] = rp[i].z; sm[i] = rp[i].m; }
  float *dx, *dy, *dz, *dm; float4 *dOut;
  CK(cudaMalloc(&dx, n * 4)); CK(cudaMalloc(&dy, n * 4)); CK(cudaMalloc(&dz, n * 4)); CK(cudaMalloc(&dm, n * 4));
  CK(cudaMalloc(&dOut, (n / 192 + 1) * sizeof(float4)));
  CK(cudaMemcpy(dx, sx.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, sy.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dz, sz.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dm, sm.data(), n * 4, cudaMemcpyHostToDevice));
  const int nb = (n + 191) / 192;  // 6 warps a block, the last block partial
  momentsSoA<<<nb, 192>>>(SoA{dx, dy, dz, dm}, dOut, n);
  CK(cudaGetLastError());
  std::vector<float4> mo(nb);
  CK(cudaMemcpy(mo.data(), dOut, nb * sizeof(float4), cudaMemcpyDeviceToHost));
  {
    double g[4] = {0, 0, 0, 0}, e[4] = {0, 0, 0, 0};
    for (auto &v : mo) { g[0] += v.x; g[1] += v.y; g[2] += v.z; g[3] += v.w; }
    for (int i = 0; i < n; ++i) { e[0] += (double)sm[i] * sx[i]; e[1] += (double)sm[i] * sy[i]; e[2] += (double)sm[i] * sz[i]; e[3] += sm[i]; }
    bool k = true;
    for (int c = 0; c < 4; ++c) k &= fabs(g[c] - e[c]) <= 1e-4 * fabs(e[3]) * 10;
    printf("momentsSoA: %.4f %.4f %.4f %.4f, bits %016llx %s\n", g[0], g[1], g[2], g[3], (unsigned long long)bitsum(mo.data(), nb * 16), k ? "ok" : "WRONG");
    ok &= k;
  }
  // int4 stencil
  const int n4 = n / 4;
  std::vector<int> hi(n);
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; hi[i] = (int)(s >> 16) - 32768; }
  int4 *dI, *dO;
  CK(cudaMalloc(&dI, n * 4)); CK(cudaMalloc(&dO, n * 4));
  CK(cudaMemcpy(dI, hi.data(), n * 4, cudaMemcpyHostToDevice));
  stencilInt4<<<(n4 + 255) / 256, 256>>>(dI, dO, n4);
  CK(cudaGetLastError());
  std::vector<int> ro(n);
  CK(cudaMemcpy(ro.data(), dO, n * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      // in block b, element e's window reaches 7 ahead, within the block's 1024 + 8 staged values
      int blockStart = (i / 1024) * 1024;
      int sum = 0;
      for (int k = 0; k <= 7; ++k) { int j = i + k; int v = (j < n && j < blockStart + 1032) ? hi[j] : 0; sum += v * (k + 1); }
      if (ro[i] != sum) { if (bad < 4) printf("stencil %d: %d vs %d\n", i, ro[i], sum); ++bad; }
    }
    printf("stencilInt4: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(ro.data(), n * 4));
    ok &= bad == 0;
  }
  // double2 rows
  const int rows = 64, cols = 4096;
  std::vector<double2> ha((size_t)rows * cols), hb(cols);
  for (auto &v : ha) v = make_double2(u(), u());
  for (auto &v : hb) v = make_double2(u(), u());
  double2 *dA, *dB, *dC;
  CK(cudaMalloc(&dA, ha.size() * 16)); CK(cudaMalloc(&dB, cols * 16)); CK(cudaMalloc(&dC, ha.size() * 16));
  CK(cudaMemcpy(dA, ha.data(), ha.size() * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, hb.data(), cols * 16, cudaMemcpyHostToDevice));
  complexRows<<<dim3(8, rows), 128>>>(dA, dB, dC, cols);
  CK(cudaGetLastError());
  std::vector<double2> hc(ha.size());
  CK(cudaMemcpy(hc.data(), dC, hc.size() * 16, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int r = 0; r < rows; ++r) {
      double t = Horner<5>::eval<double>(hpd, (double)r / rows);
      for (int j = 0; j < cols; ++j) {
        double2 x = ha[(size_t)r * cols + j], y = hb[j], g = hc[(size_t)r * cols + j];
        double ex = (x.x * y.x - x.y * y.y) * t, ey = (x.x * y.y + x.y * y.x) * t;
        if (fabs(g.x - ex) > 1e-13 || fabs(g.y - ey) > 1e-13) ++bad;
      }
    }
    printf("complexRows: %d wrong, bits %016llx\n", bad, (unsigned long long)bitsum(hc.data(), hc.size() * 16));
    ok &= bad == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
