// Double-precision division, square root and reciprocal over operands chosen per warp to take or
// miss ptxas's slow paths (subnormal, huge, tiny, zero, infinite and NaN operands next to
// ordinary ones): whole warps of ordinary operands, warps with one odd lane in four, warps of odd
// operands only. Results compared bit for bit with the host (all three correctly rounded). Then a
// cube root by Newton's method a thread, each step a double division, leaving the loop when the
// step is small (a branch on float results, iteration counts differing by lane), and a
// grid-stride harmonic sum of 1/(k + x) with a 64-bit bit-hash of the results.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__global__ void dops(const double *a, const double *b, double *q, double *s, double *r, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double x = a[i], y = b[i];
  q[i] = x / y;
  s[i] = sqrt(fabs(x));
  r[i] = 1.0 / y;
}

__global__ void cbrtNewton(const double *c, double *root, int *steps, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double v = c[i];
  double x = v > 1.0 ? v / 3.0 : 1.0;
  int k = 0;
  while (k < 200) {
    const double d = (x - v / (x * x)) / 3.0;
    x -= d;
    ++k;
    if (fabs(d) <= 1e-14 * x) break;
  }
  root[i] = x;
  steps[i] = k;
}

__global__ void harmonic(const double *x, int n, int terms, unsigned long long *hash, double *sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = 0.0;
  for (int k = 1; k <= terms; ++k) s += 1.0 / (k + x[i]);
  sum[i] = s;
  unsigned long long h;
  memcpy(&h, &s, 8);
  atomicAdd(hash, h * 0x9E3779B97F4A7C15ull >> 3);
}

static uint64_t bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

int main() {
  const int n = 64 * 128;   // 64 blocks of 128
  std::vector<double> a(n), b(n);
  const double odd[8] = {4.9e-324, 1e-310, 1.7e308, 1e-300, 0.0, INFINITY, NAN, -2.2e-308};
  unsigned st = 12345u;
  auto rnd = [&]() { st = st * 1664525u + 1013904223u; return st >> 8; };
  for (int i = 0; i < n; ++i) {
    const int w = i / 32, lane = i % 32;
    a[i] = (rnd() % 100000) / 37.0 - 1000.0;
    b[i] = (rnd() % 100000) / 53.0 + 0.25;
    const int kind = w % 4;   // 0: ordinary; 1: one lane in four odd; 2: all odd; 3: one lane odd
    bool oddA = false, oddB = false;
    if (kind == 1 && lane % 4 == (w / 4) % 4) { oddA = (lane / 4) % 2; oddB = !oddA; }
    if (kind == 2) { oddA = lane % 3 != 0; oddB = lane % 3 != 1; }
    if (kind == 3 && lane == (w * 7) % 32) oddB = true;
    if (oddA) a[i] = odd[(rnd() >> 3) % 8] * ((rnd() & 1) ? 1.0 : -1.0);
    if (oddB) b[i] = odd[(rnd() >> 3) % 8] * ((rnd() & 1) ? 1.0 : -1.0);
  }
  double *da, *db, *dq, *ds, *dr;
  CK(cudaMalloc(&da, n * 8)); CK(cudaMalloc(&db, n * 8)); CK(cudaMalloc(&dq, n * 8));
  CK(cudaMalloc(&ds, n * 8)); CK(cudaMalloc(&dr, n * 8));
  CK(cudaMemcpy(da, a.data(), n * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), n * 8, cudaMemcpyHostToDevice));
  dops<<<n / 128, 128>>>(da, db, dq, ds, dr, n);
  CK(cudaGetLastError());
  std::vector<double> q(n), s(n), r(n);
  CK(cudaMemcpy(q.data(), dq, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(s.data(), ds, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dr, n * 8, cudaMemcpyDeviceToHost));
  int bad = 0;
  uint64_t h1 = 0;
  for (int i = 0; i < n; ++i) {
    const double eq = a[i] / b[i], es = sqrt(fabs(a[i])), er = 1.0 / b[i];
    auto same = [](double g, double e) { return bits(g) == bits(e) || (std::isnan(g) && std::isnan(e)); };
    if (!same(q[i], eq) || !same(s[i], es) || !same(r[i], er)) {
      if (bad < 5) printf("dops %d: %a/%a got %a %a %a want %a %a %a\n", i, a[i], b[i], q[i], s[i], r[i], eq, es, er);
      ++bad;
    }
    h1 = h1 * 1099511628211ull ^ (std::isnan(q[i]) ? 1 : bits(q[i])) ^ (bits(s[i]) << 1) ^ (std::isnan(r[i]) ? 3 : bits(r[i]));
  }
  printf("dops: %d of %d differ, hash %016llx\n", bad, n, (unsigned long long)h1);

  // cube roots of values over many magnitudes
  const int m = 48 * 128;
  std::vector<double> c(m);
  for (int i = 0; i < m; ++i) c[i] = ldexp(1.0 + (rnd() % 1000) / 1000.0, (int)(rnd() % 120) - 40);
  double *dc, *droot; int *dsteps;
  CK(cudaMalloc(&dc, m * 8)); CK(cudaMalloc(&droot, m * 8)); CK(cudaMalloc(&dsteps, m * 4));
  CK(cudaMemcpy(dc, c.data(), m * 8, cudaMemcpyHostToDevice));
  cbrtNewton<<<m / 128, 128>>>(dc, droot, dsteps, m);
  CK(cudaGetLastError());
  std::vector<double> root(m); std::vector<int> steps(m);
  CK(cudaMemcpy(root.data(), droot, m * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(steps.data(), dsteps, m * 4, cudaMemcpyDeviceToHost));
  int bad2 = 0; long long stepSum = 0; double rs = 0;
  for (int i = 0; i < m; ++i) {
    stepSum += steps[i]; rs += root[i];
    if (fabs(root[i] - cbrt(c[i])) > 1e-12 * cbrt(c[i]) || steps[i] >= 200) ++bad2;
  }
  printf("cbrt: %d of %d off, steps %lld, sum %.12e\n", bad2, m, stepSum, rs);

  // harmonic sums
  const int hn = 32 * 128;
  std::vector<double> x(hn);
  for (int i = 0; i < hn; ++i) x[i] = (rnd() % 5000) / 7.0;
  double *dx, *dsum; unsigned long long *dh;
  CK(cudaMalloc(&dx, hn * 8)); CK(cudaMalloc(&dsum, hn * 8)); CK(cudaMalloc(&dh, 8));
  CK(cudaMemcpy(dx, x.data(), hn * 8, cudaMemcpyHostToDevice));
  CK(cudaMemset(dh, 0, 8));
  harmonic<<<hn / 128, 128>>>(dx, hn, 64, dh, dsum);
  CK(cudaGetLastError());
  std::vector<double> sum(hn); unsigned long long gh = 0;
  CK(cudaMemcpy(sum.data(), dsum, hn * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&gh, dh, 8, cudaMemcpyDeviceToHost));
  int bad3 = 0; unsigned long long hh = 0;
  for (int i = 0; i < hn; ++i) {
    double e = 0.0;
    for (int k = 1; k <= 64; ++k) e += 1.0 / (k + x[i]);
    if (bits(e) != bits(sum[i])) ++bad3;
    hh += bits(sum[i]) * 0x9E3779B97F4A7C15ull >> 3;
  }
  printf("harmonic: %d of %d differ, hash %016llx\n", bad3, hn, gh);
  const bool ok = bad == 0 && bad2 == 0 && bad3 == 0 && hh == gh;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
