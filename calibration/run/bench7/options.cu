// Option pricing in the shapes of the classic "BlackScholes", "binomialOptions" and
// "MonteCarloMultiGPU" samples (own code): Black-Scholes calls and puts by the polynomial normal
// CDF (expf, logf, sqrtf, __fdividef, a float division, a branch on the sign), two options a
// thread by a grid-stride loop; a binomial tree of 1024 steps a block per option, the leaves'
// payoffs by expf and fmaxf, backward induction through shared memory in tiles of steps; a Monte
// Carlo pricer with a counter-based hash RNG (no curand) and Box-Muller (logf, sqrtf, sincospif),
// a path count not a multiple of the block, per-block sums of the payoff and its square by a
// shared-memory reduction in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__host__ __device__ inline float cndf(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0) c = 1.0f - c;
  return c;
}

__global__ void blackScholes(float* call, float* put, const float* S, const float* X, const float* T, float r,
                             float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = S[i], x = X[i], t = T[i];
    float sqrtT = sqrtf(t);
    float d1 = __fdividef(logf(s / x) + (r + 0.5f * v * v) * t, v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float c1 = cndf(d1), c2 = cndf(d2);
    float ert = expf(-r * t);
    call[i] = s * c1 - x * ert * c2;
    put[i] = x * ert * (1.0f - c2) - s * (1.0f - c1);
  }
}

constexpr int STEPS = 1024;
constexpr int BT = 128;          // threads a block
constexpr int TILE = 16;         // steps a thread group works through between syncs
__global__ void binomial(float* price, const float* S, const float* X, const float* T, float r, float v) {
  __shared__ float callA[BT + 1], callB[BT + 1];
  __shared__ float leaves[STEPS + 1];
  const int o = blockIdx.x, t = threadIdx.x;
  const float s = S[o], x = X[o], time = T[o];
  const float dt = time / STEPS, vdt = v * sqrtf(dt), rdt = r * dt;
  const float df = expf(-rdt);
  const float u = expf(vdt), d = 1.0f / u;
  const float pu = (expf(rdt) - d) / (u - d), pd = 1.0f - pu;
  const float puByDf = pu * df, pdByDf = pd * df;
  for (int i = t; i <= STEPS; i += BT) {
    float p = s * expf(vdt * (2.0f * i - STEPS));
    leaves[i] = fmaxf(p - x, 0.f);
  }
  __syncthreads();
  // backward induction: leaves[i] = pu*leaves[i+1] + pd*leaves[i], one level at a time, with the
  // levels worked TILE at a time in a window of BT+1 values
  for (int level = STEPS; level > 0; level -= TILE) {
    for (int base = 0; base < level; base += BT - TILE) {
      int i = base + t;
      if (i <= level) callA[t] = leaves[i];
      if (t == 0 && base + BT <= level) callA[BT] = leaves[base + BT];
      __syncthreads();
      for (int k = 0; k < TILE; k += 2) {
        if (t < BT - k) callB[t] = puByDf * callA[t + 1] + pdByDf * callA[t];
        __syncthreads();
        if (t < BT - k - 1) callA[t] = puByDf * callB[t + 1] + pdByDf * callB[t];
        __syncthreads();
      }
      if (t < BT - TILE && i <= level - TILE) leaves[i] = callA[t];
      __syncthreads();
    }
  }
  if (t == 0) price[o] = leaves[0];
}

__device__ __forceinline__ unsigned hash2(unsigned a, unsigned b) {
  unsigned h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

constexpr int MT = 256;
__global__ void monteCarlo(double* sums, const float* S, const float* X, const float* T, float r, float v,
                           int paths) {
  __shared__ double s1[MT], s2[MT];
  const int o = blockIdx.y;
  const float s = S[o], x = X[o], t = T[o];
  const float mu = (r - 0.5f * v * v) * t, sig = v * sqrtf(t);
  double a = 0, b = 0;
  for (int p = blockIdx.x * MT + threadIdx.x; p < paths; p += MT * gridDim.x) {
    unsigned h1 = hash2(p, 2 * o), h2 = hash2(p, 2 * o + 1);
    float u1 = (h1 >> 8) * (1.0f / 16777216.0f) + (0.5f / 16777216.0f);
    float u2 = (h2 >> 8) * (1.0f / 16777216.0f);
    float sn, cs;
    sincospif(2.0f * u2, &sn, &cs);
    float rad = sqrtf(-2.0f * logf(u1));
    float z0 = rad * cs, z1 = rad * sn;
    float pay0 = fmaxf(s * expf(mu + sig * z0) - x, 0.f);
    float pay1 = fmaxf(s * expf(mu - sig * z1) - x, 0.f);  // antithetic-ish second draw
    float pay = 0.5f * (pay0 + pay1);
    a += pay;
    b += (double)pay * pay;
  }
  s1[threadIdx.x] = a;
  s2[threadIdx.x] = b;
  for (int k = MT / 2; k > 0; k >>= 1) {
    __syncthreads();
    if (threadIdx.x < k) {
      s1[threadIdx.x] += s1[threadIdx.x + k];
      s2[threadIdx.x] += s2[threadIdx.x + k];
    }
  }
  if (threadIdx.x == 0) {
    sums[2 * (o * gridDim.x + blockIdx.x)] = s1[0];
    sums[2 * (o * gridDim.x + blockIdx.x) + 1] = s2[0];
  }
}

static double bsHost(double s, double x, double t, double r, double v) {
  double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
  auto N = [](double z) { return 0.5 * erfc(-z / sqrt(2.0)); };
  return s * N(d1) - x * exp(-r * t) * N(d2);
}

static unsigned crc(const float* p, int n) {
  unsigned c = 0;
  for (int i = 0; i < n; ++i) {
    unsigned u;
    memcpy(&u, p + i, 4);
    c = c * 16777619u ^ u;
  }
  return c;
}

int main() {
  const int N = 200000;
  const float r = 0.02f, v = 0.30f;
  float *S = (float*)malloc(N * 4), *X = (float*)malloc(N * 4), *T = (float*)malloc(N * 4);
  unsigned x = 1u;
  auto rnd = [&](float lo, float hi) {
    x = x * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((x >> 8) * (1.0f / 16777216.0f));
  };
  for (int i = 0; i < N; ++i) {
    S[i] = rnd(5.f, 30.f);
    X[i] = rnd(1.f, 100.f);
    T[i] = rnd(0.25f, 10.f);
  }
  float *dS, *dX, *dT, *dc, *dp;
  CHECK(cudaMalloc(&dS, N * 4));
  CHECK(cudaMalloc(&dX, N * 4));
  CHECK(cudaMalloc(&dT, N * 4));
  CHECK(cudaMalloc(&dc, N * 4));
  CHECK(cudaMalloc(&dp, N * 4));
  CHECK(cudaMemcpy(dS, S, N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dX, X, N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dT, T, N * 4, cudaMemcpyHostToDevice));
  blackScholes<<<N / 512, 256>>>(dc, dp, dS, dX, dT, r, v, N);
  CHECK(cudaGetLastError());
  float *call = (float*)malloc(N * 4), *put = (float*)malloc(N * 4);
  CHECK(cudaMemcpy(call, dc, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(put, dp, N * 4, cudaMemcpyDeviceToHost));
  double maxErr = 0, sumC = 0;
  for (int i = 0; i < N; ++i) {
    double ref = bsHost(S[i], X[i], T[i], r, v);
    maxErr = fmax(maxErr, fabs(ref - call[i]));
    sumC += call[i];
  }
  printf("BlackScholes: %d options, call sum %.4f, max error %.2e, bits %08x %08x\n", N, sumC, maxErr,
         crc(call, N), crc(put, N));
  bool ok = maxErr < 1e-3;

  // binomial tree for the first options
  const int NB = 48;
  float* bp;
  CHECK(cudaMalloc(&bp, NB * 4));
  binomial<<<NB, BT>>>(bp, dS, dX, dT, r, v);
  CHECK(cudaGetLastError());
  float bprice[NB];
  CHECK(cudaMemcpy(bprice, bp, NB * 4, cudaMemcpyDeviceToHost));
  double bErr = 0;
  for (int i = 0; i < NB; ++i) bErr = fmax(bErr, fabs(bprice[i] - bsHost(S[i], X[i], T[i], r, v)));
  printf("binomial: %d options, %d steps, price[0] %.5f price[7] %.5f, max error vs BS %.2e, bits %08x\n", NB,
         STEPS, bprice[0], bprice[7], bErr, crc(bprice, NB));
  ok = ok && bErr < 2e-2;

  // Monte Carlo for a few options
  const int NM = 6, PATHS = 100000, GX = 32;
  double* sums;
  CHECK(cudaMalloc(&sums, NM * GX * 2 * 8));
  monteCarlo<<<dim3(GX, NM), MT>>>(sums, dS, dX, dT, r, v, PATHS);
  CHECK(cudaGetLastError());
  double hs[NM * GX * 2];
  CHECK(cudaMemcpy(hs, sums, sizeof(hs), cudaMemcpyDeviceToHost));
  for (int o = 0; o < NM; ++o) {
    double a = 0, b = 0;
    for (int g = 0; g < GX; ++g) {
      a += hs[2 * (o * GX + g)];
      b += hs[2 * (o * GX + g) + 1];
    }
    double mean = a / PATHS, sd = sqrt(fmax(b / PATHS - mean * mean, 0.0));
    double price = exp(-r * T[o]) * mean, conf = exp(-r * T[o]) * 1.96 * sd / sqrt((double)PATHS);
    double ref = bsHost(S[o], X[o], T[o], r, v);
    bool good = fabs(price - ref) <= 3 * conf + 1e-3;
    printf("MonteCarlo option %d: %.6f +- %.6f (BS %.6f) %s\n", o, price, conf, ref, good ? "ok" : "WRONG");
    ok = ok && good;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
