// Thrust with extended __device__ lambdas (--extended-lambda): particles as a zip of three
// device_vectors transformed by a lambda, sort_by_key of float keys with int values, a sort of
// 64-bit keys by a lambda comparator (merge sort), reduce_by_key over sorted cell ids,
// transform_reduce with a lambda, inclusive_scan with a maximum, copy_if by a lambda predicate
// on a counting_iterator, unique, gather through a permutation, count_if and min_element. Each
// result is checked against the host's std:: computation. Prints PASS or FAIL.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <numeric>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/unique.h>
#include <thrust/gather.h>
#include <thrust/count.h>
#include <thrust/extrema.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>
#include <thrust/iterator/constant_iterator.h>

static uint32_t lcg(uint32_t &s) { s = s * 1664525u + 1013904223u; return s; }

int main() {
  const int N = 1 << 17;
  std::vector<float> hx(N), hy(N), hv(N);
  std::vector<uint64_t> hk(N);
  uint32_t s = 31337;
  for (int i = 0; i < N; ++i) {
    hx[i] = (lcg(s) >> 8) / 16777216.0f; hy[i] = (lcg(s) >> 8) / 16777216.0f; hv[i] = (lcg(s) >> 8) / 16777216.0f - 0.5f;
    hk[i] = ((uint64_t)lcg(s) << 32) | lcg(s);
  }
  int fails = 0;
  // 1. zip transform: move particles, wrap into [0, 1), cell id on a 64x64 grid
  thrust::device_vector<float> x(hx), y(hy), v(hv);
  thrust::device_vector<int> cell(N);
  const float dt = 0.37f;
  thrust::transform(thrust::make_zip_iterator(thrust::make_tuple(x.begin(), y.begin(), v.begin())),
                    thrust::make_zip_iterator(thrust::make_tuple(x.end(), y.end(), v.end())), cell.begin(),
                    [=] __device__(thrust::tuple<float, float, float> p) -> int {
                      float px = thrust::get<0>(p) + dt * thrust::get<2>(p);
                      float py = thrust::get<1>(p) - dt * thrust::get<2>(p);
                      px -= floorf(px); py -= floorf(py);
                      return min((int)(px * 64.0f), 63) * 64 + min((int)(py * 64.0f), 63);
                    });
  std::vector<int> hc(N);
  for (int i = 0; i < N; ++i) {
    float px = hx[i] + dt * hv[i], py = hy[i] - dt * hv[i];
    px -= floorf(px); py -= floorf(py);
    hc[i] = std::min((int)(px * 64.0f), 63) * 64 + std::min((int)(py * 64.0f), 63);
  }
  thrust::host_vector<int> gc = cell;
  int bc = 0; for (int i = 0; i < N; ++i) bc += gc[i] != hc[i];
  printf("cells %s\n", bc ? "WRONG" : "ok"); fails += bc != 0;
  // 2. sort_by_key (cell ids, particle index), then reduce_by_key: particles per cell
  thrust::device_vector<int> idx(N);
  thrust::sequence(idx.begin(), idx.end());
  thrust::sort_by_key(cell.begin(), cell.end(), idx.begin());
  thrust::device_vector<int> ucell(N), count(N);
  auto ends = thrust::reduce_by_key(cell.begin(), cell.end(), thrust::make_constant_iterator(1), ucell.begin(), count.begin());
  int cells = ends.first - ucell.begin();
  std::vector<int> hcount(4096, 0); for (int c : hc) hcount[c]++;
  int hcells = std::count_if(hcount.begin(), hcount.end(), [](int c) { return c > 0; });
  thrust::host_vector<int> gu = ucell, gn = count;
  int br = cells != hcells;
  for (int k = 0; k < cells && !br; ++k) br += gn[k] != hcount[gu[k]];
  thrust::host_vector<int> gi = idx;   // stable order within a cell is not asked: check it is a permutation by cell
  for (int k = 1; k < N && !br; ++k) br += hc[gi[k - 1]] > hc[gi[k]];
  printf("cells used %d %s\n", cells, br ? "WRONG" : "ok"); fails += br != 0;
  // 3. 64-bit keys sorted by a lambda comparator on (low 20 bits, then the whole key)
  thrust::device_vector<uint64_t> k(hk);
  thrust::sort(k.begin(), k.end(), [] __device__(uint64_t a, uint64_t b) -> bool {
    uint64_t la = a & 0xfffff, lb = b & 0xfffff;
    return la != lb ? la < lb : a < b;
  });
  std::vector<uint64_t> sk = hk;
  std::sort(sk.begin(), sk.end(), [](uint64_t a, uint64_t b) { uint64_t la = a & 0xfffff, lb = b & 0xfffff; return la != lb ? la < lb : a < b; });
  thrust::host_vector<uint64_t> gk = k;
  int bk = 0; for (int i = 0; i < N; ++i) bk += gk[i] != sk[i];
  printf("comparator sort %s, first %016llx\n", bk ? "WRONG" : "ok", (unsigned long long)gk[0]); fails += bk != 0;
  // 4. transform_reduce with a lambda: kinetic energy in double
  double e = thrust::transform_reduce(v.begin(), v.end(), [] __device__(float a) -> double { return 0.5 * (double)a * a; }, 0.0, thrust::plus<double>());
  double he = 0; for (float a : hv) he += 0.5 * (double)a * a;
  bool eok = fabs(e - he) < 1e-9 * he;
  printf("energy %s\n", eok ? "ok" : "WRONG"); fails += !eok;
  // 5. inclusive_scan with a maximum over int values
  thrust::device_vector<int> val(N);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), val.begin(),
                    [] __device__(int i) -> int { return (int)((i * 2654435761u) >> 12) % 1000003; });
  thrust::device_vector<int> run(N);
  thrust::inclusive_scan(val.begin(), val.end(), run.begin(), thrust::maximum<int>());
  thrust::host_vector<int> gr = run;
  int bm = 0, m = -1;
  for (int i = 0; i < N; ++i) { m = std::max(m, (int)(((unsigned)i * 2654435761u) >> 12) % 1000003); bm += gr[i] != m; }
  printf("running max %s, last %d\n", bm ? "WRONG" : "ok", (int)gr[N - 1]); fails += bm != 0;
  // 6. copy_if over a counting_iterator (indices of slow particles), count_if, min_element
  thrust::device_vector<int> slow(N);
  float* vp = thrust::raw_pointer_cast(v.data());
  auto se = thrust::copy_if(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), slow.begin(),
                            [vp] __device__(int i) -> bool { return fabsf(vp[i]) < 0.05f; });
  int ns = se - slow.begin();
  int nc = thrust::count_if(v.begin(), v.end(), [] __device__(float a) -> bool { return fabsf(a) < 0.05f; });
  int hs = 0; for (float a : hv) hs += fabsf(a) < 0.05f;
  auto mn = thrust::min_element(v.begin(), v.end());
  int mi = mn - v.begin();
  int hmi = std::min_element(hv.begin(), hv.end()) - hv.begin();
  bool sok = ns == hs && nc == hs && mi == hmi;
  printf("slow %d of %d, min at %d %s\n", ns, N, mi, sok ? "ok" : "WRONG"); fails += !sok;
  // 7. gather the slow particles' x, sort them, unique after rounding to 1/256
  thrust::device_vector<float> gx(ns);
  thrust::gather(slow.begin(), slow.begin() + ns, x.begin(), gx.begin());
  thrust::transform(gx.begin(), gx.end(), gx.begin(), [] __device__(float a) -> float { return floorf(a * 256.0f) / 256.0f; });
  thrust::sort(gx.begin(), gx.end());
  int nu = thrust::unique(gx.begin(), gx.end()) - gx.begin();
  std::vector<float> hg; for (int i = 0; i < N; ++i) if (fabsf(hv[i]) < 0.05f) hg.push_back(floorf(hx[i] * 256.0f) / 256.0f);
  std::sort(hg.begin(), hg.end());
  int hnu = std::unique(hg.begin(), hg.end()) - hg.begin();
  printf("unique %d %s\n", nu, nu == hnu ? "ok" : "WRONG"); fails += nu != hnu;
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
