// Staggered-fermion hopping term on a 16^4 periodic lattice: SU(3)-sized complex 3x3 links (float2,
// element-major layout), a thread a site: 4 forward products U chi(x+mu) and 4 backward products
// with the conjugate transpose of the neighbour's link, sign factors from the coordinates' parity,
// neighbours by periodic wrap; ten normalised iterations (the norm by double warp shuffles, per-warp
// partials in shared memory, the scale passed back by the host); then the plaquette: 6 planes of
// three 3x3 complex products a site, real traces summed in double. Checked against the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>

#define L 16
#define VOL (L * L * L * L)

struct C { float r, i; };
__host__ __device__ inline C cmul(C a, C b) { return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; }
__host__ __device__ inline C cmulc(C a, C b) { return {a.r * b.r + a.i * b.i, a.r * b.i - a.i * b.r}; }  // conj(a) b
__host__ __device__ inline C cadd(C a, C b) { return {a.r + b.r, a.i + b.i}; }

__host__ __device__ inline int nbr(int s, int mu, int dir) {
  int c[4] = {s % L, (s / L) % L, (s / (L * L)) % L, s / (L * L * L)};
  c[mu] = (c[mu] + dir + L) % L;
  return ((c[3] * L + c[2]) * L + c[1]) * L + c[0];
}
__host__ __device__ inline float eta(int s, int mu) {
  int x0 = s % L, x1 = (s / L) % L, x2 = (s / (L * L)) % L;
  int p = mu == 0 ? 0 : mu == 1 ? x0 : mu == 2 ? x0 + x1 : x0 + x1 + x2;
  return (p & 1) ? -1.0f : 1.0f;
}
// U[(mu * 9 + row * 3 + col) * VOL + s]
__host__ __device__ inline void hop(const C *U, const C *in, int s, C out[3]) {
  for (int a = 0; a < 3; a++) out[a] = {0.f, 0.f};
  for (int mu = 0; mu < 4; mu++) {
    int f = nbr(s, mu, 1), b = nbr(s, mu, -1);
    float e = 0.5f * eta(s, mu);
    for (int a = 0; a < 3; a++) {
      C fw = {0.f, 0.f}, bw = {0.f, 0.f};
      for (int k = 0; k < 3; k++) {
        fw = cadd(fw, cmul(U[(mu * 9 + a * 3 + k) * VOL + s], in[k * VOL + f]));
        bw = cadd(bw, cmulc(U[(mu * 9 + k * 3 + a) * VOL + b], in[k * VOL + b]));
      }
      out[a].r += e * (fw.r - bw.r);
      out[a].i += e * (fw.i - bw.i);
    }
  }
}

__global__ void dslash(const C *U, const C *in, C *out, float a, float b) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= VOL) return;
  C h[3];
  hop(U, in, s, h);
  for (int c = 0; c < 3; c++) {
    C v = in[c * VOL + s];
    out[c * VOL + s] = {a * v.r + b * h[c].r, a * v.i + b * h[c].i};
  }
}

__global__ void norm2(const C *in, double *partial) {
  __shared__ double w[32];
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  double v = 0;
  if (s < VOL)
    for (int c = 0; c < 3; c++) { C z = in[c * VOL + s]; v += (double)z.r * z.r + (double)z.i * z.i; }
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
  }
}

__host__ __device__ inline void link(const C *U, int mu, int s, C m[9]) {
  for (int e = 0; e < 9; e++) m[e] = U[(mu * 9 + e) * VOL + s];
}
__host__ __device__ inline void mm(const C a[9], const C b[9], C r[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      C t = {0.f, 0.f};
      for (int k = 0; k < 3; k++) t = cadd(t, cmul(a[i * 3 + k], b[k * 3 + j]));
      r[i * 3 + j] = t;
    }
}
// Re tr(U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+) summed over the six planes
__host__ __device__ inline float plaq(const C *U, int s) {
  float sum = 0;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++) {
      C a[9], b[9], c[9], d[9], ab[9], dc[9];
      link(U, mu, s, a); link(U, nu, nbr(s, mu, 1), b); link(U, mu, nbr(s, nu, 1), c); link(U, nu, s, d);
      mm(a, b, ab);
      // dc = d c: tr(ab (dc)^+) = sum_ij ab_ij conj(dc_ij)
      mm(d, c, dc);
      for (int e = 0; e < 9; e++) sum += ab[e].r * dc[e].r + ab[e].i * dc[e].i;
    }
  return sum;
}

__global__ void plaquette(const C *U, double *partial) {
  __shared__ double t[128];
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = s < VOL ? (double)plaq(U, s) : 0.0;
  __syncthreads();
  for (int h = 64; h > 0; h >>= 1) {
    if (threadIdx.x < h) t[threadIdx.x] += t[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = t[0];
}

static uint32_t rng(uint32_t &s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }
static float uni(uint32_t &s) { return (rng(s) >> 8) * (1.0f / 16777216.0f) - 0.5f; }

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 10;
  uint32_t seed = 31337;
  std::vector<C> U((size_t)36 * VOL), x((size_t)3 * VOL);
  for (auto &u : U) u = {uni(seed), uni(seed)};
  for (auto &v : x) v = {uni(seed), uni(seed)};
  C *dU, *dA, *dB; double *dP;
  int bs = 128, nb = VOL / bs;
  cudaMalloc(&dU, U.size() * sizeof(C)); cudaMalloc(&dA, x.size() * sizeof(C)); cudaMalloc(&dB, x.size() * sizeof(C));
  cudaMalloc(&dP, nb * 8);
  cudaMemcpy(dU, U.data(), U.size() * sizeof(C), cudaMemcpyHostToDevice);
  cudaMemcpy(dA, x.data(), x.size() * sizeof(C), cudaMemcpyHostToDevice);
  std::vector<double> part(nb);
  std::vector<C> h = x, h2(x.size());
  float scale = 1.0f;
  bool ok = true;
  for (int it = 0; it < iters; it++) {
    dslash<<<nb, bs>>>(dU, dA, dB, 0.5f * scale, 0.8f * scale);
    norm2<<<nb, bs>>>(dB, dP);
    cudaMemcpy(part.data(), dP, nb * 8, cudaMemcpyDeviceToHost);
    double n2 = 0;
    for (double p : part) n2 += p;
    for (int s = 0; s < VOL; s++) {
      C hh[3];
      hop(U.data(), h.data(), s, hh);
      for (int c = 0; c < 3; c++) {
        C v = h[(size_t)c * VOL + s];
        h2[(size_t)c * VOL + s] = {0.5f * scale * v.r + 0.8f * scale * hh[c].r, 0.5f * scale * v.i + 0.8f * scale * hh[c].i};
      }
    }
    h.swap(h2);
    double hn = 0;
    for (auto &v : h) hn += (double)v.r * v.r + (double)v.i * v.i;
    if (it % 3 == 0 || it == iters - 1) printf("iteration %d: |chi|^2 %.6e (host %.6e)\n", it, n2, hn);
    ok &= fabs(n2 - hn) <= 1e-4 * hn;
    scale = (float)(1.0 / sqrt(n2 / (3.0 * VOL)));
    C *t = dA; dA = dB; dB = t;
  }
  std::vector<C> g(x.size());
  cudaMemcpy(g.data(), dA, g.size() * sizeof(C), cudaMemcpyDeviceToHost);
  long bad = 0;
  for (size_t k = 0; k < g.size(); k++)
    bad += fabsf(g[k].r - h[k].r) > 1e-3f * (1.0f + fabsf(h[k].r)) || fabsf(g[k].i - h[k].i) > 1e-3f * (1.0f + fabsf(h[k].i));
  plaquette<<<nb, bs>>>(dU, dP);
  cudaMemcpy(part.data(), dP, nb * 8, cudaMemcpyDeviceToHost);
  double pg = 0, ph = 0;
  for (double p : part) pg += p;
  for (int s = 0; s < VOL; s++) ph += plaq(U.data(), s);
  printf("%d^4 sites, %d iterations: %ld components differ; plaquette sum %.6f (host %.6f)\n", L, iters, bad, pg, ph);
  ok &= bad == 0 && fabs(pg - ph) <= 1e-3 * (1.0 + fabs(ph));
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("stagger: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
