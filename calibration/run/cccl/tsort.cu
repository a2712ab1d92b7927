// Thrust's sorts: integer keys and floats (radix sort), a custom comparator (merge sort),
// sort_by_key, then reduce_by_key over the sorted keys; each result checked on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

struct by_low_digits {  // orders by the last two decimal digits, then by value
  __host__ __device__ bool operator()(int a, int b) const {
    int da = a % 100, db = b % 100;
    return da != db ? da < db : a < b;
  }
};

static uint32_t lcg(uint32_t &s) { s = s * 1664525u + 1013904223u; return s >> 4; }

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  int bad = 0;
  uint32_t s = 777;
  std::vector<int> hk(n);
  std::vector<float> hf(n);
  for (int i = 0; i < n; ++i) {
    hk[i] = (int)(lcg(s) % 2000000) - 1000000;
    hf[i] = ((float)(lcg(s) % 100000) - 50000.0f) / 128.0f;
  }

  thrust::device_vector<int> dk(hk.begin(), hk.end());
  thrust::sort(dk.begin(), dk.end());
  std::vector<int> want = hk;
  std::sort(want.begin(), want.end());
  thrust::host_vector<int> got = dk;
  int b = 0;
  for (int i = 0; i < n; ++i) b += got[i] != want[i];
  printf("sort int: %d wrong, first %d last %d\n", b, (int)got[0], (int)got[n - 1]);
  bad += b != 0;

  thrust::device_vector<float> df(hf.begin(), hf.end());
  thrust::sort(df.begin(), df.end());
  std::vector<float> wf = hf;
  std::sort(wf.begin(), wf.end());
  thrust::host_vector<float> gf = df;
  b = 0;
  for (int i = 0; i < n; ++i) b += gf[i] != wf[i];
  printf("sort float: %d wrong, first %.4f median %.4f\n", b, gf[0], gf[n / 2]);
  bad += b != 0;

  const int nm = n / 4;  // merge sort is the slowest: a quarter of the keys
  thrust::device_vector<int> dm(hk.begin(), hk.begin() + nm);
  thrust::sort(dm.begin(), dm.end(), by_low_digits());
  std::vector<int> wm(hk.begin(), hk.begin() + nm);
  std::sort(wm.begin(), wm.end(), by_low_digits());
  thrust::host_vector<int> gm = dm;
  b = 0;
  for (int i = 0; i < nm; ++i) b += gm[i] != wm[i];
  printf("sort comparator: %d wrong, m[100] %d\n", b, (int)gm[100]);
  bad += b != 0;

  // sort_by_key: keys in [0, 500), values their positions (stable: thrust's radix sort is)
  std::vector<int> sk(n), sv(n);
  for (int i = 0; i < n; ++i) { sk[i] = lcg(s) % 500; sv[i] = i; }
  thrust::device_vector<int> dsk(sk.begin(), sk.end()), dsv(sv.begin(), sv.end());
  thrust::sort_by_key(dsk.begin(), dsk.end(), dsv.begin());
  std::vector<std::pair<int, int>> wp(n);
  for (int i = 0; i < n; ++i) wp[i] = {sk[i], sv[i]};
  std::stable_sort(wp.begin(), wp.end(), [](auto a, auto c) { return a.first < c.first; });
  thrust::host_vector<int> gk = dsk, gv = dsv;
  b = 0;
  for (int i = 0; i < n; ++i) b += gk[i] != wp[i].first || gv[i] != wp[i].second;
  printf("sort_by_key: %d wrong, v[0] %d v[n-1] %d\n", b, (int)gv[0], (int)gv[n - 1]);
  bad += b != 0;

  // reduce_by_key over the sorted keys: sum of the positions per key
  thrust::device_vector<int> ok(n);
  thrust::device_vector<long long> ov(n);
  thrust::device_vector<long long> dv64(gv.begin(), gv.end());
  auto e = thrust::reduce_by_key(dsk.begin(), dsk.end(), dv64.begin(), ok.begin(), ov.begin());
  int groups = (int)(e.first - ok.begin());
  std::vector<int> wk;
  std::vector<long long> wv;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || wp[i].first != wp[i - 1].first) { wk.push_back(wp[i].first); wv.push_back(0); }
    wv.back() += wp[i].second;
  }
  thrust::host_vector<int> hok(ok.begin(), ok.begin() + groups);
  thrust::host_vector<long long> hov(ov.begin(), ov.begin() + groups);
  b = groups != (int)wk.size();
  for (int i = 0; !b && i < groups; ++i) b += hok[i] != wk[i] || hov[i] != wv[i];
  printf("reduce_by_key: %d groups (host %d), sum[3] %lld, %s\n", groups, (int)wk.size(),
         groups > 3 ? (long long)hov[3] : -1LL, b ? "differ" : "same");
  bad += b != 0;

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
