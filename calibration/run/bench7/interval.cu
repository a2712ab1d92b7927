// Interval Newton root finding with recursion, in the shape of the classic "Interval" sample (own
// code): each thread encloses every real root of its own cubic (three roots from the data, some
// pairs 1e-4 apart, some 2e-3) in [-4, 4] by a recursive search over intervals: the cubic's
// enclosure by interval Horner evaluation with directed rounding (__dadd_rd/__dadd_ru,
// __dmul_rd/__dmul_ru, __ddiv_rd/__ddiv_ru and the float __fadd_rd, ... in the float version),
// a Newton step when the derivative's enclosure excludes zero, else a bisection into two
// recursive calls; narrow enclosures recorded per thread, adjacent ones merged. Both a double and
// a float instantiation; the recursion depth comes from the data; the stack set by
// cudaDeviceSetLimit.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__device__ __forceinline__ double add_dn(double a, double b) { return __dadd_rd(a, b); }
__device__ __forceinline__ double add_up(double a, double b) { return __dadd_ru(a, b); }
__device__ __forceinline__ double sub_dn(double a, double b) { return __dsub_rd(a, b); }
__device__ __forceinline__ double sub_up(double a, double b) { return __dsub_ru(a, b); }
__device__ __forceinline__ double mul_dn(double a, double b) { return __dmul_rd(a, b); }
__device__ __forceinline__ double mul_up(double a, double b) { return __dmul_ru(a, b); }
__device__ __forceinline__ double div_dn(double a, double b) { return __ddiv_rd(a, b); }
__device__ __forceinline__ double div_up(double a, double b) { return __ddiv_ru(a, b); }
__device__ __forceinline__ float add_dn(float a, float b) { return __fadd_rd(a, b); }
__device__ __forceinline__ float add_up(float a, float b) { return __fadd_ru(a, b); }
__device__ __forceinline__ float sub_dn(float a, float b) { return __fsub_rd(a, b); }
__device__ __forceinline__ float sub_up(float a, float b) { return __fsub_ru(a, b); }
__device__ __forceinline__ float mul_dn(float a, float b) { return __fmul_rd(a, b); }
__device__ __forceinline__ float mul_up(float a, float b) { return __fmul_ru(a, b); }
__device__ __forceinline__ float div_dn(float a, float b) { return __fdiv_rd(a, b); }
__device__ __forceinline__ float div_up(float a, float b) { return __fdiv_ru(a, b); }

template <class T>
struct Iv {
  T lo, hi;
};

template <class T>
__device__ Iv<T> imul(Iv<T> a, Iv<T> b) {
  T p[4] = {mul_dn(a.lo, b.lo), mul_dn(a.lo, b.hi), mul_dn(a.hi, b.lo), mul_dn(a.hi, b.hi)};
  T q[4] = {mul_up(a.lo, b.lo), mul_up(a.lo, b.hi), mul_up(a.hi, b.lo), mul_up(a.hi, b.hi)};
  return {fmin(fmin(p[0], p[1]), fmin(p[2], p[3])), fmax(fmax(q[0], q[1]), fmax(q[2], q[3]))};
}
template <class T>
__device__ Iv<T> iaddc(Iv<T> a, T c) {
  return {add_dn(a.lo, c), add_up(a.hi, c)};
}

template <class T>
struct Cubic {
  T c2, c1, c0;  // x^3 + c2 x^2 + c1 x + c0
};

template <class T>
__device__ Iv<T> evalF(const Cubic<T>& p, Iv<T> x) {
  Iv<T> r = iaddc(x, p.c2);
  r = iaddc(imul(r, x), p.c1);
  return iaddc(imul(r, x), p.c0);
}
template <class T>
__device__ Iv<T> evalD(const Cubic<T>& p, Iv<T> x) {  // 3x^2 + 2 c2 x + c1
  Iv<T> r = {mul_dn((T)3, x.lo), mul_up((T)3, x.hi)};
  r = iaddc(r, (T)2 * p.c2);
  return iaddc(imul(r, x), p.c1);
}

constexpr int MAXR = 8;
template <class T>
struct Found {
  int n, calls, depth;
  Iv<T> r[MAXR];
};

template <class T>
__device__ __noinline__ void search(const Cubic<T>& p, Iv<T> x, int depth, T eps, Found<T>& f) {
  f.calls++;
  if (depth > f.depth) f.depth = depth;
  Iv<T> fx = evalF(p, x);
  if (fx.lo > (T)0 || fx.hi < (T)0) return;
  Iv<T> d = evalD(p, x);
  T m = (T)0.5 * (x.lo + x.hi);
  Iv<T> fm = evalF(p, Iv<T>{m, m});
  {
    // the mean-value form f(m) + F'(x)(x - m) encloses f too, and tighter on narrow intervals
    Iv<T> mv = imul(d, Iv<T>{sub_dn(x.lo, m), sub_up(x.hi, m)});
    if (add_dn(mv.lo, fm.lo) > (T)0 || add_up(mv.hi, fm.hi) < (T)0) return;
  }
  if (x.hi - x.lo < eps || depth >= 60) {
    if (f.n > 0 && f.r[f.n - 1].hi >= x.lo) {
      f.r[f.n - 1].hi = fmax(f.r[f.n - 1].hi, x.hi);  // adjacent: merge
    } else if (f.n < MAXR) {
      f.r[f.n++] = x;
    }
    return;
  }
  if (d.lo > (T)0 || d.hi < (T)0) {
    T q[4] = {div_dn(fm.lo, d.lo), div_dn(fm.lo, d.hi), div_dn(fm.hi, d.lo), div_dn(fm.hi, d.hi)};
    T u[4] = {div_up(fm.lo, d.lo), div_up(fm.lo, d.hi), div_up(fm.hi, d.lo), div_up(fm.hi, d.hi)};
    T qlo = fmin(fmin(q[0], q[1]), fmin(q[2], q[3])), qhi = fmax(fmax(u[0], u[1]), fmax(u[2], u[3]));
    Iv<T> n = {fmax(x.lo, sub_dn(m, qhi)), fmin(x.hi, sub_up(m, qlo))};
    if (n.lo > n.hi) return;  // no root in x
    if (n.hi - n.lo < (T)0.75 * (x.hi - x.lo)) {
      search(p, n, depth + 1, eps, f);
      return;
    }
    x = n;
    m = (T)0.5 * (x.lo + x.hi);
  }
  search(p, Iv<T>{x.lo, m}, depth + 1, eps, f);
  search(p, Iv<T>{m, x.hi}, depth + 1, eps, f);
}

template <class T>
__global__ void findRoots(const double* roots, int n, T eps, T* out, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = roots[3 * i], b = roots[3 * i + 1], c = roots[3 * i + 2];
  Cubic<T> p = {(T)(-(a + b + c)), (T)(a * b + a * c + b * c), (T)(-a * b * c)};
  Found<T> f;
  f.n = 0;
  f.calls = 0;
  f.depth = 0;
  search(p, Iv<T>{(T)-4, (T)4}, 0, eps, f);
  counts[3 * i] = f.n;
  counts[3 * i + 1] = f.calls;
  counts[3 * i + 2] = f.depth;
  for (int k = 0; k < f.n; ++k) {
    out[2 * (MAXR * i + k)] = f.r[k].lo;
    out[2 * (MAXR * i + k) + 1] = f.r[k].hi;
  }
}

template <class T>
static bool check(const char* name, const double* roots, int n, T eps, int threads) {
  T* dout;
  int* dcnt;
  double* droots;
  cudaMalloc(&dout, n * MAXR * 2 * sizeof(T));
  cudaMalloc(&dcnt, n * 3 * sizeof(int));
  cudaMalloc(&droots, n * 3 * sizeof(double));
  cudaMemcpy(droots, roots, n * 3 * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, n * MAXR * 2 * sizeof(T));
  findRoots<T><<<(n + threads - 1) / threads, threads>>>(droots, n, eps, dout, dcnt);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s: %s\n", name, cudaGetErrorString(e));
    return false;
  }
  T* out = (T*)malloc(n * MAXR * 2 * sizeof(T));
  int* cnt = (int*)malloc(n * 3 * sizeof(int));
  cudaMemcpy(out, dout, n * MAXR * 2 * sizeof(T), cudaMemcpyDeviceToHost);
  cudaMemcpy(cnt, dcnt, n * 3 * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0, maxDepth = 0;
  long long calls = 0, found = 0;
  double width = 0;
  for (int i = 0; i < n; ++i) {
    calls += cnt[3 * i + 1];
    found += cnt[3 * i];
    if (cnt[3 * i + 2] > maxDepth) maxDepth = cnt[3 * i + 2];
    // every true root inside some enclosure (the cubic's coefficients were rounded to T: allow a
    // margin of a few eps), and every enclosure near a true root
    for (int r = 0; r < 3; ++r) {
      double x = roots[3 * i + r];
      bool in = false;
      for (int k = 0; k < cnt[3 * i]; ++k)
        in |= x >= (double)out[2 * (MAXR * i + k)] - 1e3 * eps && x <= (double)out[2 * (MAXR * i + k) + 1] + 1e3 * eps;
      bad += !in;
    }
    for (int k = 0; k < cnt[3 * i]; ++k) {
      double lo = out[2 * (MAXR * i + k)], hi = out[2 * (MAXR * i + k) + 1];
      width += hi - lo;
      bool near = false;
      for (int r = 0; r < 3; ++r) near |= fabs(roots[3 * i + r] - 0.5 * (lo + hi)) < 1e3 * eps + (hi - lo);
      bad += !near;
    }
  }
  printf("%s: %d cubics, %lld enclosures, %lld calls, max depth %d, total width %.6e, %d wrong\n", name, n, found,
         calls, maxDepth, width, bad);
  return bad == 0;
}

int main() {
  const int n = 2000;
  double* roots = (double*)malloc(n * 3 * sizeof(double));
  unsigned x = 4242u;
  auto rnd = [&]() {
    x = x * 1664525u + 1013904223u;
    return ((x >> 8) * (1.0 / 16777216.0)) * 7.0 - 3.5;
  };
  for (int i = 0; i < n; ++i) {
    double a = rnd(), b = rnd(), c = rnd();
    if (i % 5 == 1) b = a + 1e-4;  // a close pair
    if (i % 7 == 2) c = a - 2e-3;  // a third root near the first
    roots[3 * i] = a;
    roots[3 * i + 1] = b;
    roots[3 * i + 2] = c;
  }
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
  bool ok = check<double>("double", roots, n, 1e-8, 128);
  ok = check<float>("float", roots, n, 1e-3f, 64) && ok;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
