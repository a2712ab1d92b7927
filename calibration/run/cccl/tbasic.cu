// Thrust's element-wise and scan algorithms on device_vectors: transform, reduce, transform_reduce,
// inclusive_scan, exclusive_scan, copy_if, unique; each result checked on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/unique.h>
#include <thrust/functional.h>
#include <cstdio>
#include <cstdint>
#include <vector>

struct saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct is_odd_multiple {
  __host__ __device__ bool operator()(int x) const { return (x & 1) && x % 3 == 0; }
};

static uint32_t lcg(uint32_t &s) { s = s * 1664525u + 1013904223u; return s >> 8; }

int main() {
  const int n = 1 << 18;
  int bad = 0;
  uint32_t s = 12345;
  std::vector<int> hi(n);
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hi[i] = (int)(lcg(s) % 1000) - 300;
    hx[i] = (float)(lcg(s) % 1024) / 64.0f;
    hy[i] = (float)(lcg(s) % 512) / 32.0f;
  }
  thrust::device_vector<int> di(hi.begin(), hi.end());
  thrust::device_vector<float> dx(hx.begin(), hx.end()), dy(hy.begin(), hy.end()), dz(n);

  // transform (saxpy): every value is a multiple of 1/64 below 2^16: exact in float
  thrust::transform(dx.begin(), dx.end(), dy.begin(), dz.begin(), saxpy{2.0f});
  thrust::host_vector<float> hz = dz;
  int tbad = 0;
  for (int i = 0; i < n; ++i) tbad += hz[i] != 2.0f * hx[i] + hy[i];
  printf("transform: %d wrong, z[7] = %.6f\n", tbad, hz[7]);
  bad += tbad != 0;

  // reduce of ints (exact whatever the order)
  long long want = 0;
  for (int i = 0; i < n; ++i) want += hi[i];
  int got = thrust::reduce(di.begin(), di.end(), 0);
  printf("reduce: %d (host %lld)\n", got, want);
  bad += got != (int)want;

  // transform_reduce: sum of squares in 64 bits
  long long want2 = 0;
  for (int i = 0; i < n; ++i) want2 += (long long)hi[i] * hi[i];
  long long got2 = thrust::transform_reduce(di.begin(), di.end(), square(), 0LL, thrust::plus<long long>());
  printf("transform_reduce: %lld (host %lld)\n", got2, want2);
  bad += got2 != want2;

  // max by reduce
  int mx = thrust::reduce(di.begin(), di.end(), -1000000, thrust::maximum<int>());
  int hmx = -1000000;
  for (int i = 0; i < n; ++i) hmx = hi[i] > hmx ? hi[i] : hmx;
  printf("reduce max: %d (host %d)\n", mx, hmx);
  bad += mx != hmx;

  // inclusive and exclusive scans
  thrust::device_vector<int> ds(n);
  thrust::inclusive_scan(di.begin(), di.end(), ds.begin());
  thrust::host_vector<int> hs = ds;
  int sbad = 0;
  int acc = 0;
  for (int i = 0; i < n; ++i) { acc += hi[i]; sbad += hs[i] != acc; }
  printf("inclusive_scan: %d wrong, last %d\n", sbad, (int)hs[n - 1]);
  bad += sbad != 0;
  thrust::exclusive_scan(di.begin(), di.end(), ds.begin(), 5);
  hs = ds;
  sbad = 0;
  acc = 5;
  for (int i = 0; i < n; ++i) { sbad += hs[i] != acc; acc += hi[i]; }
  printf("exclusive_scan: %d wrong, s[1000] %d\n", sbad, (int)hs[1000]);
  bad += sbad != 0;

  // copy_if
  thrust::device_vector<int> dc(n);
  auto end = thrust::copy_if(di.begin(), di.end(), dc.begin(), is_odd_multiple());
  int m = (int)(end - dc.begin());
  std::vector<int> hc;
  for (int i = 0; i < n; ++i) if (is_odd_multiple()(hi[i])) hc.push_back(hi[i]);
  thrust::host_vector<int> gc(dc.begin(), dc.begin() + m);
  int cbad = m != (int)hc.size();
  for (int i = 0; !cbad && i < m; ++i) cbad += gc[i] != hc[i];
  printf("copy_if: %d kept (host %d), %s\n", m, (int)hc.size(), cbad ? "differ" : "same");
  bad += cbad != 0;

  // unique on runs: values i/7 with a few repeats
  std::vector<int> hr(n);
  for (int i = 0; i < n; ++i) hr[i] = (i / 7) % 1000 + (lcg(s) % 16 == 0);
  thrust::device_vector<int> dr(hr.begin(), hr.end());
  auto uend = thrust::unique(dr.begin(), dr.end());
  int u = (int)(uend - dr.begin());
  std::vector<int> hu;
  for (int i = 0; i < n; ++i) if (i == 0 || hr[i] != hr[i - 1]) hu.push_back(hr[i]);
  thrust::host_vector<int> gu(dr.begin(), dr.begin() + u);
  int ubad = u != (int)hu.size();
  for (int i = 0; !ubad && i < u; ++i) ubad += gu[i] != hu[i];
  printf("unique: %d left (host %d), %s\n", u, (int)hu.size(), ubad ? "differ" : "same");
  bad += ubad != 0;

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
