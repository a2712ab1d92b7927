// The cuRAND device API (curand_kernel.h) in a Monte-Carlo program: XORWOW states set up with
// curand_init over subsequences (skipahead by precomputed matrices), a pi estimate from
// curand_uniform pairs, one thread's subsequence-0 stream and its offset/skipahead forms checked
// bit for bit against the host's own XORWOW; Philox4_32_10 normals (curand_normal4) and
// log-normals; MRG32k3a states over subsequences drawing curand_poisson at a small and a large
// mean and curand_uniform_double. Statistics are checked against their known values; integer
// counts and bit checksums are printed. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <curand_kernel.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

constexpr unsigned long long SEED = 20261130ull;

__global__ void initXorwow(curandState *st, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) curand_init(SEED, i, 0, &st[i]);
}

__global__ void piXorwow(curandState *st, int draws, unsigned long long *inside) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s = st[i];
  unsigned c = 0;
  for (int k = 0; k < draws; ++k) {
    float x = curand_uniform(&s), y = curand_uniform(&s);
    c += x * x + y * y <= 1.0f;
  }
  st[i] = s;
  for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(inside, (unsigned long long)c);
}

// one thread: the subsequence-0 stream, the same from offset 10, and after skipahead(1000)
__global__ void streams(unsigned *out) {
  curandState a, b, c;
  curand_init(SEED, 0, 0, &a);
  curand_init(SEED, 0, 10, &b);
  curand_init(SEED, 0, 0, &c);
  skipahead(1000ull, &c);
  for (int k = 0; k < 32; ++k) { out[k] = curand(&a); out[32 + k] = curand(&b); out[64 + k] = curand(&c); }
}

__global__ void philoxNormals(int rounds, float *sum, float *sumsq, float *lsum, unsigned *tails) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t p;
  curand_init(SEED, i, 0, &p);
  float s = 0.0f, q = 0.0f, l = 0.0f;
  unsigned t = 0;
  for (int r = 0; r < rounds; ++r) {
    float4 v = curand_normal4(&p);
    s += v.x + v.y + v.z + v.w;
    q += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    t += (fabsf(v.x) > 2.0f) + (fabsf(v.y) > 2.0f) + (fabsf(v.z) > 2.0f) + (fabsf(v.w) > 2.0f);
    l += curand_log_normal(&p, 0.0f, 0.5f);
  }
  sum[i] = s; sumsq[i] = q; lsum[i] = l; tails[i] = t;
}

__global__ void mrgPoisson(int small, int large, unsigned *ps, unsigned *pl, double *u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStateMRG32k3a m;
  curand_init(SEED, i, 0, &m);
  unsigned a = 0, b = 0;
  for (int k = 0; k < small; ++k) a += curand_poisson(&m, 3.5);
  for (int k = 0; k < large; ++k) b += curand_poisson(&m, 80.0);
  double d = 0.0;
  for (int k = 0; k < 16; ++k) d += curand_uniform_double(&m);
  ps[i] = a; pl[i] = b; u[i] = d;
}

struct HostXorwow {
  uint32_t d, v[5];
  explicit HostXorwow(unsigned long long seed) {
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    d = 6615241u + t1 + t0;
    v[0] = 123456789u + t0; v[1] = 362436069u ^ t0; v[2] = 521288629u + t1; v[3] = 88675123u ^ t1; v[4] = 5783321u + t0;
  }
  uint32_t next() {
    uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1]; v[1] = v[2]; v[2] = v[3]; v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    d += 362437u;
    return v[4] + d;
  }
};

static uint32_t bitsOf(const float *p, int n) { uint32_t h = 0; for (int i = 0; i < n; ++i) { uint32_t u; memcpy(&u, &p[i], 4); h = h * 31u + u; } return h; }

int main() {
  const int NX = 2048, DRAWS = 1024, NP = 8192, PR = 32, NM = 1024, SMALL = 128, LARGE = 32;
  curandState *dSt; unsigned long long *dIn; unsigned *dSeq;
  float *dS, *dQ, *dL; unsigned *dT, *dPs, *dPl; double *dU;
  CK(cudaMalloc(&dSt, NX * sizeof(curandState))); CK(cudaMalloc(&dIn, 8)); CK(cudaMalloc(&dSeq, 96 * 4));
  CK(cudaMalloc(&dS, NP * 4)); CK(cudaMalloc(&dQ, NP * 4)); CK(cudaMalloc(&dL, NP * 4)); CK(cudaMalloc(&dT, NP * 4));
  CK(cudaMalloc(&dPs, NM * 4)); CK(cudaMalloc(&dPl, NM * 4)); CK(cudaMalloc(&dU, NM * 8));
  CK(cudaMemset(dIn, 0, 8));
  initXorwow<<<NX / 256, 256>>>(dSt, NX);
  CK(cudaGetLastError());
  piXorwow<<<NX / 256, 256>>>(dSt, DRAWS, dIn);
  CK(cudaGetLastError());
  streams<<<1, 1>>>(dSeq);
  CK(cudaGetLastError());
  philoxNormals<<<NP / 128, 128>>>(PR, dS, dQ, dL, dT);
  CK(cudaGetLastError());
  mrgPoisson<<<NM / 128, 128>>>(SMALL, LARGE, dPs, dPl, dU);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned long long inside; unsigned seq[96];
  std::vector<float> S(NP), Q(NP), L(NP); std::vector<unsigned> T(NP), Ps(NM), Pl(NM); std::vector<double> U(NM);
  CK(cudaMemcpy(&inside, dIn, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(seq, dSeq, sizeof seq, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(S.data(), dS, NP * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(Q.data(), dQ, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(L.data(), dL, NP * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(T.data(), dT, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(Ps.data(), dPs, NM * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(Pl.data(), dPl, NM * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(U.data(), dU, NM * 8, cudaMemcpyDeviceToHost));
  int fails = 0;
  double pi = 4.0 * inside / ((double)NX * DRAWS);
  bool piOk = fabs(pi - M_PI) < 0.01;
  printf("pi: %llu inside, %.5f %s\n", inside, pi, piOk ? "ok" : "WRONG");
  fails += !piOk;
  HostXorwow h(SEED);
  uint32_t want[1032 + 32];
  for (int k = 0; k < 1032 + 32; ++k) want[k] = h.next();
  int bs = 0;
  for (int k = 0; k < 32; ++k) { bs += seq[k] != want[k]; bs += seq[32 + k] != want[10 + k]; bs += seq[64 + k] != want[1000 + k]; }
  printf("xorwow stream %s, first %08x %08x\n", bs ? "WRONG" : "ok", seq[0], seq[1]);
  fails += bs != 0;
  double s = 0, q = 0, l = 0; unsigned long long t = 0;
  for (int i = 0; i < NP; ++i) { s += S[i]; q += Q[i]; l += L[i]; t += T[i]; }
  double n = (double)NP * PR * 4, mean = s / n, var = q / n - mean * mean, lmean = l / ((double)NP * PR), tail = t / n;
  bool nOk = fabs(mean) < 0.01 && fabs(var - 1.0) < 0.01 && fabs(lmean - exp(0.125)) < 0.01 && fabs(tail - 0.0455) < 0.002;
  printf("philox normals %s, tails %llu, bits %08x %08x %08x\n", nOk ? "ok" : "WRONG", t, bitsOf(S.data(), NP), bitsOf(Q.data(), NP), bitsOf(L.data(), NP));
  fails += !nOk;
  unsigned long long a = 0, b = 0; double u = 0;
  for (int i = 0; i < NM; ++i) { a += Ps[i]; b += Pl[i]; u += U[i]; }
  double ma = (double)a / ((double)NM * SMALL), mb = (double)b / ((double)NM * LARGE), mu = u / (NM * 16.0);
  bool pOk = fabs(ma - 3.5) < 0.05 && fabs(mb - 80.0) < 0.3 && fabs(mu - 0.5) < 0.01;
  printf("mrg poisson %s, sums %llu %llu, uniform sum %.10f\n", pOk ? "ok" : "WRONG", a, b, u);
  fails += !pOk;
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
