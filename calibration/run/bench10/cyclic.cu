// Tridiagonal systems by cyclic reduction, a block a system of 512 unknowns in shared memory (four
// arrays a, b, c, d): log2(n) forward levels, each thread of the level eliminating the odd
// neighbours of one equation (two float divisions by data, neighbours outside the system taken as
// identity rows), the active threads halving each level, then back substitution level by level
// (a division by the pivot, neighbours at the level's stride), a barrier a level. 64 systems a
// launch, three launches with other diagonals (one nearly singular scale, one with a negative
// off-diagonal). The host solves each by the Thomas algorithm in double and checks the residual.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define N 512

__global__ void cyclicReduction(const float *ga, const float *gb, const float *gc, const float *gd,
                                float *gx) {
  __shared__ float a[N], b[N], c[N], d[N], x[N];
  int t = threadIdx.x, sys = blockIdx.x * N;
  for (int i = t; i < N; i += blockDim.x) {
    a[i] = ga[sys + i]; b[i] = gb[sys + i]; c[i] = gc[sys + i]; d[i] = gd[sys + i];
  }
  __syncthreads();
  int stride = 1;
  for (int active = N / 2; active > 0; active >>= 1) {
    float na = 0.f, nb = 0.f, nc = 0.f, nd = 0.f;
    int i = (2 * t + 2) * stride - 1;
    if (t < active) {
      int lo = i - stride, hi = i + stride;
      float k1 = a[i] / b[lo];
      float k2 = hi < N ? c[i] / b[hi] : 0.f;
      na = -a[lo] * k1;
      nb = b[i] - c[lo] * k1 - (hi < N ? a[hi] * k2 : 0.f);
      nc = hi < N ? -c[hi] * k2 : 0.f;
      nd = d[i] - d[lo] * k1 - (hi < N ? d[hi] * k2 : 0.f);
    }
    __syncthreads();
    if (t < active) { a[i] = na; b[i] = nb; c[i] = nc; d[i] = nd; }
    stride <<= 1;
    __syncthreads();
  }
  if (t == 0) x[N - 1] = d[N - 1] / b[N - 1];
  for (int active = 1; active <= N / 2; active <<= 1) {
    stride >>= 1;
    __syncthreads();
    if (t < active) {
      int i = (2 * t + 1) * stride - 1;
      float left = i - stride >= 0 ? x[i - stride] : 0.f;
      float right = i + stride < N ? x[i + stride] : 0.f;
      x[i] = (d[i] - a[i] * left - c[i] * right) / b[i];
    }
  }
  __syncthreads();
  for (int i = t; i < N; i += blockDim.x) gx[sys + i] = x[i];
}

int main() {
  const int ns = 64, tot = ns * N;
  std::vector<float> a(tot), b(tot), c(tot), d(tot), x(tot);
  float *da, *db, *dc, *dd, *dx;
  CK(cudaMalloc(&da, tot * 4)); CK(cudaMalloc(&db, tot * 4)); CK(cudaMalloc(&dc, tot * 4));
  CK(cudaMalloc(&dd, tot * 4)); CK(cudaMalloc(&dx, tot * 4));
  unsigned s = 777u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (float)((s >> 8) & 0xffff) / 65536.f; };
  int bad = 0;
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < ns; ++k)
      for (int i = 0; i < N; ++i) {
        int j = k * N + i;
        float off = round == 2 ? -1.f : 1.f;
        a[j] = i == 0 ? 0.f : off * (0.2f + rnd());
        c[j] = i == N - 1 ? 0.f : off * (0.2f + rnd());
        b[j] = (fabsf(a[j]) + fabsf(c[j])) * (round == 1 ? 1.02f : 1.5f) + rnd() * 0.1f;
        if ((i + k) % 3 == 0) b[j] = -b[j];
        d[j] = rnd() * 4.f - 2.f;
      }
    CK(cudaMemcpy(da, a.data(), tot * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), tot * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c.data(), tot * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dd, d.data(), tot * 4, cudaMemcpyHostToDevice));
    cyclicReduction<<<ns, N / 2>>>(da, db, dc, dd, dx);
    CK(cudaGetLastError());
    CK(cudaMemcpy(x.data(), dx, tot * 4, cudaMemcpyDeviceToHost));
    double worst = 0, sum = 0;
    int b2 = 0;
    for (int k = 0; k < ns; ++k) {
      std::vector<double> cp(N), dp(N), sol(N);
      for (int i = 0; i < N; ++i) {
        int j = k * N + i;
        double den = b[j] - (i ? a[j] * cp[i - 1] : 0.0);
        cp[i] = c[j] / den;
        dp[i] = (d[j] - (i ? a[j] * dp[i - 1] : 0.0)) / den;
      }
      sol[N - 1] = dp[N - 1];
      for (int i = N - 2; i >= 0; --i) sol[i] = dp[i] - cp[i] * sol[i + 1];
      for (int i = 0; i < N; ++i) {
        double e = fabs(sol[i] - x[k * N + i]) / (1.0 + fabs(sol[i]));
        if (e > worst) worst = e;
        if (!(e < 1e-3)) ++b2;
        sum += x[k * N + i];
      }
    }
    unsigned bits = 0;
    for (int i = 0; i < tot; ++i) { unsigned u; memcpy(&u, &x[i], 4); bits = bits * 31u + u; }
    printf("cyclic round %d: sum %.6f, worst relative error %.3e, bits %08x, %d bad\n", round, sum, worst, bits, b2);
    bad += b2;
  }
  printf("cyclic %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
