// Natural cubic splines, 2,048 of them on 128 uneven knots each, stored interleaved (knot i of
// spline s at i * S + s): a thread a spline solves the tridiagonal system for the second
// derivatives by the Thomas algorithm (a float division a row, forward then backward), then 2^20
// points each find their interval by a binary search of their spline's knots (strided, data-
// dependent) and evaluate the cubic; points outside the knots are clamped. Checked against the
// host's double computation.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int S = 2048, K = 128;

__global__ void thomas(const float *__restrict__ xs, const float *__restrict__ ys, float *__restrict__ cp,
                       float *__restrict__ dp, float *__restrict__ m2) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= S) return;
  // rows 1..K-2: h0 m[i-1] + 2 (h0 + h1) m[i] + h1 m[i+1] = 6 (dy1 / h1 - dy0 / h0), m[0] = m[K-1] = 0
  float prevC = 0.f, prevD = 0.f;
  for (int i = 1; i < K - 1; ++i) {
    const float x0 = xs[(i - 1) * S + s], x1 = xs[i * S + s], x2 = xs[(i + 1) * S + s];
    const float y0 = ys[(i - 1) * S + s], y1 = ys[i * S + s], y2 = ys[(i + 1) * S + s];
    const float h0 = x1 - x0, h1 = x2 - x1;
    const float r = 6.f * ((y2 - y1) / h1 - (y1 - y0) / h0);
    const float b = 2.f * (h0 + h1) - h0 * prevC;
    const float c = h1 / b, d = (r - h0 * prevD) / b;
    cp[i * S + s] = c;
    dp[i * S + s] = d;
    prevC = c; prevD = d;
  }
  float next = 0.f;
  m2[(K - 1) * S + s] = 0.f;
  for (int i = K - 2; i >= 1; --i) {
    next = dp[i * S + s] - cp[i * S + s] * next;
    m2[i * S + s] = next;
  }
  m2[s] = 0.f;
}

__global__ void evaluate(const float *__restrict__ xs, const float *__restrict__ ys, const float *__restrict__ m2,
                         const int *__restrict__ which, const float *__restrict__ at, float *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int s = which[i];
  float t = at[i];
  const float lo = xs[s], hi = xs[(K - 1) * S + s];
  if (t < lo) t = lo;
  if (t > hi) t = hi;
  int a = 0, b = K - 1;
  while (b - a > 1) {
    const int mid = (a + b) >> 1;
    if (xs[mid * S + s] > t) b = mid; else a = mid;
  }
  const float xa = xs[a * S + s], xb = xs[b * S + s], h = xb - xa;
  const float A = (xb - t) / h, B = (t - xa) / h;
  out[i] = A * ys[a * S + s] + B * ys[b * S + s] +
           ((A * A * A - A) * m2[a * S + s] + (B * B * B - B) * m2[b * S + s]) * (h * h) / 6.f;
}

int main() {
  std::vector<float> xs((size_t)K * S), ys((size_t)K * S);
  unsigned r = 31337u;
  auto rnd = [&]() { r = r * 1664525u + 1013904223u; return ((r >> 8) & 0xffff) / 65536.f; };
  for (int s = 0; s < S; ++s) {
    float x = -1.f + rnd();
    for (int i = 0; i < K; ++i) {
      xs[(size_t)i * S + s] = x;
      ys[(size_t)i * S + s] = sinf(x * (1 + s % 7) * 0.3f) + 0.1f * rnd();
      x += 0.05f + (s % 3 == 0 ? 2.f * rnd() : 0.2f * rnd());
    }
  }
  const int n = 1 << 18;
  std::vector<int> which(n);
  std::vector<float> at(n);
  for (int i = 0; i < n; ++i) {
    int s = (i / 16) % S;   // 16 consecutive points on one spline
    which[i] = s;
    float lo = xs[s], hi = xs[(size_t)(K - 1) * S + s];
    at[i] = lo - 0.5f + (hi - lo + 1.f) * rnd();
  }
  float *dX, *dY, *dC, *dD, *dM, *dA, *dO; int *dW;
  CK(cudaMalloc(&dX, xs.size() * 4)); CK(cudaMalloc(&dY, ys.size() * 4)); CK(cudaMalloc(&dC, xs.size() * 4));
  CK(cudaMalloc(&dD, xs.size() * 4)); CK(cudaMalloc(&dM, xs.size() * 4)); CK(cudaMalloc(&dA, n * 4));
  CK(cudaMalloc(&dO, n * 4)); CK(cudaMalloc(&dW, n * 4));
  CK(cudaMemcpy(dX, xs.data(), xs.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dY, ys.data(), ys.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dW, which.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dA, at.data(), n * 4, cudaMemcpyHostToDevice));
  thomas<<<S / 64, 64>>>(dX, dY, dC, dD, dM);
  evaluate<<<n / 256, 256>>>(dX, dY, dM, dW, dA, dO, n);
  CK(cudaGetLastError());
  std::vector<float> out(n);
  CK(cudaMemcpy(out.data(), dO, n * 4, cudaMemcpyDeviceToHost));
  // host: the same system in double
  std::vector<double> M((size_t)K * S);
  for (int s = 0; s < S; ++s) {
    std::vector<double> c(K), d(K), m(K, 0.0);
    double pc = 0, pd = 0;
    for (int i = 1; i < K - 1; ++i) {
      double x0 = xs[(i - 1) * S + s], x1 = xs[i * S + s], x2 = xs[(i + 1) * S + s];
      double y0 = ys[(i - 1) * S + s], y1 = ys[i * S + s], y2 = ys[(i + 1) * S + s];
      double h0 = x1 - x0, h1 = x2 - x1, rr = 6 * ((y2 - y1) / h1 - (y1 - y0) / h0);
      double b = 2 * (h0 + h1) - h0 * pc;
      c[i] = h1 / b; d[i] = (rr - h0 * pd) / b; pc = c[i]; pd = d[i];
    }
    for (int i = K - 2; i >= 1; --i) m[i] = d[i] - c[i] * m[i + 1];
    for (int i = 0; i < K; ++i) M[(size_t)i * S + s] = m[i];
  }
  double worst = 0, sum = 0;
  int clamped = 0;
  for (int i = 0; i < n; ++i) {
    int s = which[i];
    double t = at[i], lo = xs[s], hi = xs[(size_t)(K - 1) * S + s];
    if (t < lo || t > hi) clamped++;
    t = fmin(fmax(t, lo), hi);
    int a = 0, b = K - 1;
    while (b - a > 1) { int mid = (a + b) / 2; if (xs[(size_t)mid * S + s] > t) b = mid; else a = mid; }
    double xa = xs[(size_t)a * S + s], xb = xs[(size_t)b * S + s], h = xb - xa, A = (xb - t) / h, B = (t - xa) / h;
    double v = A * ys[(size_t)a * S + s] + B * ys[(size_t)b * S + s] +
               ((A * A * A - A) * M[(size_t)a * S + s] + (B * B * B - B) * M[(size_t)b * S + s]) * h * h / 6;
    worst = fmax(worst, fabs(v - out[i]));
    sum += out[i];
  }
  printf("spline: %d splines of %d knots, %d points (%d clamped), sum %.6f, max error %.2e\n", S, K, n, clamped, sum, worst);
  const bool ok = worst < 2e-3;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
