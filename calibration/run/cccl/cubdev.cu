// CUB's device-wide algorithms with the two-call temporary-storage protocol: DeviceReduce::Sum and
// ArgMax, DeviceScan::ExclusiveSum, DeviceRadixSort::SortPairs, DeviceHistogram::HistogramEven,
// DeviceSelect::If, DeviceSegmentedReduce::Sum; each result checked on the host.
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 2; } } while (0)

struct below_third {
  int limit;
  __host__ __device__ bool operator()(int x) const { return x < limit; }
};

static uint32_t lcg(uint32_t &s) { s = s * 1664525u + 1013904223u; return s >> 8; }

static void *tmp = nullptr;
static size_t tmp_bytes = 0;
static cudaError_t grow(size_t need) {  // one scratch buffer, grown as the calls ask
  if (need <= tmp_bytes) return cudaSuccess;
  if (tmp) cudaFree(tmp);
  tmp_bytes = need;
  return cudaMalloc(&tmp, need);
}

int main() {
  const int n = 1 << 18;
  int bad = 0;
  uint32_t s = 2024;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (int)(lcg(s) % 3000);  // sums stay below 2^31
  h[n / 3] = 4000;  // the maximum, once
  int *d_in, *d_out, *d_cnt;
  CK(cudaMalloc(&d_in, n * sizeof(int)));
  CK(cudaMalloc(&d_out, n * sizeof(int)));
  CK(cudaMalloc(&d_cnt, 16 * sizeof(int)));
  CK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  size_t need = 0;

  // Sum
  CK(cub::DeviceReduce::Sum(nullptr, need, d_in, d_cnt, n));
  CK(grow(need));
  CK(cub::DeviceReduce::Sum(tmp, need, d_in, d_cnt, n));
  int sum = 0;
  CK(cudaMemcpy(&sum, d_cnt, sizeof(int), cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int v : h) want += v;
  printf("DeviceReduce::Sum: %d (host %lld)\n", sum, want);
  bad += sum != want;

  // ArgMax (the extremum and its index in two outputs)
  int *d_max;
  long long *d_idx;
  CK(cudaMalloc(&d_max, sizeof(int)));
  CK(cudaMalloc(&d_idx, sizeof(long long)));
  need = 0;
  CK(cub::DeviceReduce::ArgMax(nullptr, need, d_in, d_max, d_idx, n));
  CK(grow(need));
  CK(cub::DeviceReduce::ArgMax(tmp, need, d_in, d_max, d_idx, n));
  int mx;
  long long at;
  CK(cudaMemcpy(&mx, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&at, d_idx, sizeof(long long), cudaMemcpyDeviceToHost));
  printf("DeviceReduce::ArgMax: %d at %lld (host at %d)\n", mx, at, n / 3);
  bad += mx != 4000 || at != n / 3;

  // ExclusiveSum
  need = 0;
  CK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n));
  CK(grow(need));
  CK(cub::DeviceScan::ExclusiveSum(tmp, need, d_in, d_out, n));
  std::vector<int> g(n);
  CK(cudaMemcpy(g.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int b = 0, acc = 0;
  for (int i = 0; i < n; ++i) { b += g[i] != acc; acc += h[i]; }
  printf("DeviceScan::ExclusiveSum: %d wrong, s[n-1] %d\n", b, g[n - 1]);
  bad += b != 0;

  // SortPairs: keys h, values their positions
  const int ns = n / 4;
  int *d_kout, *d_vin, *d_vout;
  CK(cudaMalloc(&d_kout, ns * sizeof(int)));
  CK(cudaMalloc(&d_vin, ns * sizeof(int)));
  CK(cudaMalloc(&d_vout, ns * sizeof(int)));
  std::vector<int> pos(ns);
  for (int i = 0; i < ns; ++i) pos[i] = i;
  CK(cudaMemcpy(d_vin, pos.data(), ns * sizeof(int), cudaMemcpyHostToDevice));
  need = 0;
  CK(cub::DeviceRadixSort::SortPairs(nullptr, need, d_in, d_kout, d_vin, d_vout, ns));
  CK(grow(need));
  CK(cub::DeviceRadixSort::SortPairs(tmp, need, d_in, d_kout, d_vin, d_vout, ns));
  std::vector<int> gk(ns), gv(ns);
  CK(cudaMemcpy(gk.data(), d_kout, ns * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gv.data(), d_vout, ns * sizeof(int), cudaMemcpyDeviceToHost));
  std::stable_sort(pos.begin(), pos.end(), [&](int a, int c) { return h[a] < h[c]; });
  b = 0;
  for (int i = 0; i < ns; ++i) b += gk[i] != h[pos[i]] || gv[i] != pos[i];
  printf("DeviceRadixSort::SortPairs: %d wrong, k[0] %d v[0] %d k[ns-1] %d\n", b, gk[0], gv[0], gk[ns - 1]);
  bad += b != 0;

  // HistogramEven: 10 bins over [0, 3000)
  int *d_hist;
  CK(cudaMalloc(&d_hist, 10 * sizeof(int)));
  need = 0;
  CK(cub::DeviceHistogram::HistogramEven(nullptr, need, d_in, d_hist, 11, 0, 3000, n));
  CK(grow(need));
  CK(cub::DeviceHistogram::HistogramEven(tmp, need, d_in, d_hist, 11, 0, 3000, n));
  int gh[10], wh[10] = {0};
  CK(cudaMemcpy(gh, d_hist, sizeof gh, cudaMemcpyDeviceToHost));
  for (int v : h) if (v < 3000) wh[v / 300]++;
  b = 0;
  for (int i = 0; i < 10; ++i) b += gh[i] != wh[i];
  printf("DeviceHistogram::HistogramEven: %d bins wrong, bin0 %d bin9 %d\n", b, gh[0], gh[9]);
  bad += b != 0;

  // Select::If
  need = 0;
  CK(cub::DeviceSelect::If(nullptr, need, d_in, d_out, d_cnt, n, below_third{1000}));
  CK(grow(need));
  CK(cub::DeviceSelect::If(tmp, need, d_in, d_out, d_cnt, n, below_third{1000}));
  int kept;
  CK(cudaMemcpy(&kept, d_cnt, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> ws;
  for (int v : h) if (v < 1000) ws.push_back(v);
  b = kept != (int)ws.size();
  if (!b) {
    CK(cudaMemcpy(g.data(), d_out, kept * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kept; ++i) b += g[i] != ws[i];
  }
  printf("DeviceSelect::If: %d kept (host %d), %s\n", kept, (int)ws.size(), b ? "differ" : "same");
  bad += b != 0;

  // SegmentedReduce::Sum over 1000 segments of uneven lengths (some empty)
  const int segs = 1000;
  std::vector<int> off(segs + 1);
  for (int i = 0; i <= segs; ++i) off[i] = (int)((long long)n * i / segs);
  for (int i = 1; i < segs; i += 97) off[i] = off[i - 1];  // a few empty segments
  int *d_off, *d_seg;
  CK(cudaMalloc(&d_off, (segs + 1) * sizeof(int)));
  CK(cudaMalloc(&d_seg, segs * sizeof(int)));
  CK(cudaMemcpy(d_off, off.data(), (segs + 1) * sizeof(int), cudaMemcpyHostToDevice));
  need = 0;
  CK(cub::DeviceSegmentedReduce::Sum(nullptr, need, d_in, d_seg, segs, d_off, d_off + 1));
  CK(grow(need));
  CK(cub::DeviceSegmentedReduce::Sum(tmp, need, d_in, d_seg, segs, d_off, d_off + 1));
  std::vector<int> gs(segs);
  CK(cudaMemcpy(gs.data(), d_seg, segs * sizeof(int), cudaMemcpyDeviceToHost));
  b = 0;
  for (int i = 0; i < segs; ++i) {
    int w = 0;
    for (int j = off[i]; j < off[i + 1]; ++j) w += h[j];
    b += gs[i] != w;
  }
  printf("DeviceSegmentedReduce::Sum: %d wrong, seg[5] %d seg[97] %d\n", b, gs[5], gs[97]);
  bad += b != 0;

  CK(cudaDeviceSynchronize());
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
