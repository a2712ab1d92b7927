// Functions the compiler keeps apart (`__noinline__`), called from many blocks at once: a series
// in double precision with `pow` (a loop of run-time length), a base-10 digit writer into the
// caller's local array (its frame's address passed in), a strided sum over a pointer into shared
// memory, and a recursive-free binary search over a sorted global table. A launch of two blocks
// of one working thread each (both calling the double series), then a full grid where every
// thread calls all four. Checked against the host (the series to 1e-12, the rest exactly); the
// GPU and the emulation print the same digits.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__device__ __noinline__ double series(double x, int terms) {
  double s = 0.0;
  for (int k = 1; k <= terms; ++k) s += pow(x, 0.5 * k) / (k * (double)k);
  return s;
}

__device__ __noinline__ int writeDigits(unsigned v, unsigned char *buf) {
  int n = 0;
  do { buf[n++] = (unsigned char)(v % 10u); v /= 10u; } while (v != 0u);
  return n;
}

__device__ __noinline__ int stridedSum(const int *p, int count, int stride) {
  int s = 0;
  for (int j = 0; j < count; ++j) s += p[j * stride];
  return s;
}

__device__ __noinline__ int lowerBound(const int *tab, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (tab[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__global__ void lone(const double *x, const int *terms, double *out) {
  if (threadIdx.x != 0) return;
  out[blockIdx.x] = series(x[blockIdx.x], terms[blockIdx.x]);
}

__global__ void many(const double *x, const unsigned *u, const int *tab, int tn, double *ser, int *dig, int *pos, int *ssum) {
  __shared__ int sh[256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  sh[t] = (int)(u[i] & 1023u);
  __syncthreads();
  ser[i] = series(x[i], 4 + (int)(u[i] % 13u));
  unsigned char buf[12];
  const int n = writeDigits(u[i], buf);
  int d = 0;
  for (int j = 0; j < n; ++j) d = d * 3 + buf[j];
  dig[i] = d * 16 + n;
  pos[i] = lowerBound(tab, tn, (int)(u[i] >> 12));
  ssum[i] = stridedSum(sh + (t & 7), 32 - (t & 7) * 2, 8);
}

int main() {
  unsigned st = 88172645u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  double x2[2] = {0.37, 0.81}; int tm[2] = {2000, 1900};
  double *dx2, *dout2; int *dtm;
  CK(cudaMalloc(&dx2, 16)); CK(cudaMalloc(&dout2, 16)); CK(cudaMalloc(&dtm, 8));
  CK(cudaMemcpy(dx2, x2, 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dtm, tm, 8, cudaMemcpyHostToDevice));
  lone<<<2, 64>>>(dx2, dtm, dout2);
  CK(cudaGetLastError());
  double out2[2];
  CK(cudaMemcpy(out2, dout2, 16, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < 2; ++b) {
    double e = 0.0;
    for (int k = 1; k <= tm[b]; ++k) e += pow(x2[b], 0.5 * k) / (k * (double)k);
    if (fabs(e - out2[b]) > 1e-12 * fabs(e)) ++bad;
  }
  printf("lone: %.15f %.15f\n", out2[0], out2[1]);

  const int blocks = 24, n = blocks * 256, tn = 3000;
  std::vector<double> x(n); std::vector<unsigned> u(n); std::vector<int> tab(tn);
  for (int i = 0; i < n; ++i) { x[i] = (rnd() % 9000) / 10000.0; u[i] = rnd() >> (rnd() % 24); }
  int acc = 0;
  for (int j = 0; j < tn; ++j) { acc += (int)(rnd() % 700); tab[j] = acc; }
  double *dx, *dser; unsigned *du; int *dtab, *ddig, *dpos, *dss;
  CK(cudaMalloc(&dx, n * 8)); CK(cudaMalloc(&dser, n * 8)); CK(cudaMalloc(&du, n * 4)); CK(cudaMalloc(&dtab, tn * 4));
  CK(cudaMalloc(&ddig, n * 4)); CK(cudaMalloc(&dpos, n * 4)); CK(cudaMalloc(&dss, n * 4));
  CK(cudaMemcpy(dx, x.data(), n * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(du, u.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dtab, tab.data(), tn * 4, cudaMemcpyHostToDevice));
  many<<<blocks, 256>>>(dx, du, dtab, tn, dser, ddig, dpos, dss);
  CK(cudaGetLastError());
  std::vector<double> ser(n); std::vector<int> dig(n), pos(n), ss(n);
  CK(cudaMemcpy(ser.data(), dser, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(dig.data(), ddig, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pos.data(), dpos, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ss.data(), dss, n * 4, cudaMemcpyDeviceToHost));
  double sersum = 0; long long dsum = 0, psum = 0, ssum = 0;
  for (int i = 0; i < n; ++i) {
    const int terms = 4 + (int)(u[i] % 13u);
    double e = 0.0;
    for (int k = 1; k <= terms; ++k) e += pow(x[i], 0.5 * k) / (k * (double)k);
    if (fabs(e - ser[i]) > 1e-12 * fabs(e) + 1e-300) ++bad;
    unsigned v = u[i]; int m = 0, d = 0;
    do { d = d * 3 + (int)(v % 10u); v /= 10u; ++m; } while (v);
    if (dig[i] != d * 16 + m) ++bad;
    const int key = (int)(u[i] >> 12);
    int lb = 0; while (lb < tn && tab[lb] < key) ++lb;
    if (pos[i] != lb) ++bad;
    const int blk = i / 256, t = i % 256; int s = 0;
    for (int j = 0; j < 32 - (t & 7) * 2; ++j) s += (int)(u[blk * 256 + (t & 7) + j * 8] & 1023u);
    if (ss[i] != s) ++bad;
    sersum += ser[i]; dsum += dig[i]; psum += pos[i]; ssum += ss[i];
  }
  printf("many: series %.12f digits %lld positions %lld strided %lld\n", sersum, dsum, psum, ssum);
  printf("%s (%d differ)\n", bad == 0 ? "PASS" : "FAIL", bad);
  return bad == 0 ? 0 : 1;
}
