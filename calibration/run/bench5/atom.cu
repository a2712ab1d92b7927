// Atomics beyond add: cuda::atomic_ref with memory orders (a relaxed counter, fetch_max /
// fetch_min, the last block finishing a reduction after an acq_rel ticket), an atomicCAS loop for
// a double maximum, 64-bit atomicAdd / atomicMin / atomicMax / atomicOr / atomicXor,
// atomicInc / atomicDec wrapping, and atomicExch building a chain of every thread. The host
// checks every result that does not depend on the order the GPU ran the atomics.
#include <cuda/atomic>
#include <cstdio>
#include <vector>
#include <algorithm>

__device__ double atomicMaxDouble(double* addr, double v) {
  unsigned long long* p = (unsigned long long*)addr;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    if (__longlong_as_double(assumed) >= v) break;
    old = atomicCAS(p, assumed, (unsigned long long)__double_as_longlong(v));
  } while (old != assumed);
  return __longlong_as_double(old);
}

__global__ void wide(const double* x, const long long* y, double* dmax, unsigned long long* sum,
                     long long* mn, long long* mx, unsigned long long* bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMaxDouble(dmax, x[i]);
  atomicAdd(sum, (unsigned long long)(y[i] & 0xffffffffffll) * 977ull);
  atomicMin(mn, y[i]);
  atomicMax(mx, y[i]);
  atomicOr(bits, 1ull << (y[i] & 63));
  atomicXor(bits + 1, (unsigned long long)y[i] * 0x9e3779b97f4a7c15ull);
  atomicAnd(bits + 2, ~(1ull << ((y[i] >> 7) & 63)));
}

// the same after a __syncwarp(): the lanes that left the CAS loop at different times
// reconverge before the loads, which then run once per warp
__global__ void wideSync(const double* x, const long long* y, double* dmax, unsigned long long* sum,
                         long long* mn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxDouble(dmax, x[i] * 0.5);
  __syncwarp();
  if (i >= n) return;
  atomicAdd(sum, (unsigned long long)(y[i] & 0xffffffffffll) * 977ull);
  atomicMin(mn, y[i]);
}

__global__ void wrap(unsigned* inc, unsigned* dec, unsigned* seenInc, int* chain, int* last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned o = atomicInc(inc, 99u);
  atomicAdd(&seenInc[o], 1u);
  atomicDec(dec, 49u);
  int prev = atomicExch(last, i);
  chain[i] = prev;
}

__global__ void lastBlock(const int* v, int* partial, unsigned* ticket, int* total, int* hi,
                          int* lo, unsigned* relaxed) {
  __shared__ int s[256];
  __shared__ bool amLast;
  int i = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x] = v[i];
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> cnt(*relaxed);
  if (v[i] % 11 == 0) cnt.fetch_add(1, cuda::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_device> h(*hi), l(*lo);
  h.fetch_max(v[i], cuda::memory_order_relaxed);
  l.fetch_min(v[i], cuda::memory_order_relaxed);
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> p(partial[blockIdx.x]);
    p.store(s[0], cuda::memory_order_release);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
    amLast = t.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x < 32) {
    int acc = 0;
    for (int b = threadIdx.x; b < (int)gridDim.x; b += 32) {
      cuda::atomic_ref<int, cuda::thread_scope_device> p(partial[b]);
      acc += p.load(cuda::memory_order_acquire);
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (threadIdx.x == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> tt(*total);
      int expected = 0;
      tt.compare_exchange_strong(expected, acc, cuda::memory_order_seq_cst);
    }
  }
}

int main() {
  const int n = 5000, T = 4096, B = 24;
  std::vector<double> x(n); std::vector<long long> y(n);
  unsigned long long s = 42;
  for (int i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (double)(s >> 20) / 1e9 - 4000.0;
    y[i] = (long long)(s >> 3) - (1ll << 59);
  }
  double* d_x; long long* d_y; double* d_dm; unsigned long long *d_sum, *d_bits; long long *d_mn, *d_mx;
  cudaMalloc(&d_x, 8 * n); cudaMalloc(&d_y, 8 * n); cudaMalloc(&d_dm, 8); cudaMalloc(&d_sum, 8);
  cudaMalloc(&d_bits, 24); cudaMalloc(&d_mn, 8); cudaMalloc(&d_mx, 8);
  cudaMemcpy(d_x, x.data(), 8 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y.data(), 8 * n, cudaMemcpyHostToDevice);
  double dm0 = -1e300; unsigned long long z = 0; long long big = 1ll << 62, small = -(1ll << 62);
  unsigned long long bits0[3] = {0, 0, ~0ull};
  cudaMemcpy(d_dm, &dm0, 8, cudaMemcpyHostToDevice); cudaMemcpy(d_sum, &z, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d_mn, &big, 8, cudaMemcpyHostToDevice); cudaMemcpy(d_mx, &small, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bits, bits0, 24, cudaMemcpyHostToDevice);
  bool ok = true;
  wide<<<(n + 127) / 128, 128>>>(d_x, d_y, d_dm, d_sum, d_mn, d_mx, d_bits, n);
  double dm; unsigned long long sum, bits[3]; long long mn, mx;
  cudaMemcpy(&dm, d_dm, 8, cudaMemcpyDeviceToHost); cudaMemcpy(&sum, d_sum, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&mn, d_mn, 8, cudaMemcpyDeviceToHost); cudaMemcpy(&mx, d_mx, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(bits, d_bits, 24, cudaMemcpyDeviceToHost);
  double wdm = -1e300; unsigned long long wsum = 0, wb[3] = {0, 0, ~0ull}; long long wmn = big, wmx = small;
  for (int i = 0; i < n; ++i) {
    wdm = std::max(wdm, x[i]); wsum += (unsigned long long)(y[i] & 0xffffffffffll) * 977ull;
    wmn = std::min(wmn, y[i]); wmx = std::max(wmx, y[i]);
    wb[0] |= 1ull << (y[i] & 63); wb[1] ^= (unsigned long long)y[i] * 0x9e3779b97f4a7c15ull;
    wb[2] &= ~(1ull << ((y[i] >> 7) & 63));
  }
  if (dm != wdm || sum != wsum || mn != wmn || mx != wmx || bits[0] != wb[0] || bits[1] != wb[1] || bits[2] != wb[2]) ok = false;
  printf("wide max %.6f sum %llu min %lld max %lld bits %llx %llx %llx\n", dm, sum, mn, mx, bits[0], bits[1], bits[2]);
  cudaMemcpy(d_dm, &dm0, 8, cudaMemcpyHostToDevice); cudaMemcpy(d_sum, &z, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d_mn, &big, 8, cudaMemcpyHostToDevice);
  wideSync<<<(n + 127) / 128, 128>>>(d_x, d_y, d_dm, d_sum, d_mn, n);
  cudaMemcpy(&dm, d_dm, 8, cudaMemcpyDeviceToHost); cudaMemcpy(&sum, d_sum, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&mn, d_mn, 8, cudaMemcpyDeviceToHost);
  if (dm != wdm * 0.5 || sum != wsum || mn != wmn) ok = false;
  printf("wideSync max %.6f\n", dm);
  unsigned *d_inc, *d_dec, *d_seen; int *d_chain, *d_last;
  cudaMalloc(&d_inc, 4); cudaMalloc(&d_dec, 4); cudaMalloc(&d_seen, 400); cudaMalloc(&d_chain, 4 * T); cudaMalloc(&d_last, 4);
  cudaMemset(d_inc, 0, 4); cudaMemset(d_dec, 0, 4); cudaMemset(d_seen, 0, 400); cudaMemset(d_last, 0xff, 4);
  wrap<<<T / 256, 256>>>(d_inc, d_dec, d_seen, d_chain, d_last);
  unsigned inc, dec, seen[100]; int last; std::vector<int> chain(T);
  cudaMemcpy(&inc, d_inc, 4, cudaMemcpyDeviceToHost); cudaMemcpy(&dec, d_dec, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(seen, d_seen, 400, cudaMemcpyDeviceToHost); cudaMemcpy(&last, d_last, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(chain.data(), d_chain, 4 * T, cudaMemcpyDeviceToHost);
  // inc: 0,1..99,0,..: T increments end at T % 100; each value seen T/100 or T/100+1 times
  // dec from 0 with wrap 49: 0 -> 49 -> 48 ... ; after T steps: (50 - T % 50) % 50
  if (inc != T % 100 || dec != (50 - T % 50) % 50) ok = false;
  for (int k = 0; k < 100; ++k) if (seen[k] != (unsigned)(T / 100 + (k < T % 100))) ok = false;
  std::vector<char> visited(T, 0); int len = 0;
  for (int c = last; c >= 0 && c < T && !visited[c]; c = chain[c]) { visited[c] = 1; ++len; }
  if (len != T) ok = false;
  printf("wrap inc %u dec %u chain %d seen[3] %u\n", inc, dec, len, seen[3]);
  std::vector<int> v(B * 256);
  for (int i = 0; i < B * 256; ++i) { s = s * 6364136223846793005ull + 1442695040888963407ull; v[i] = (int)(s >> 40) % 100000 - 30000; }
  int *d_v, *d_p, *d_t, *d_hi, *d_lo; unsigned *d_tk, *d_rel;
  cudaMalloc(&d_v, 4 * B * 256); cudaMalloc(&d_p, 4 * B); cudaMalloc(&d_t, 4); cudaMalloc(&d_hi, 4); cudaMalloc(&d_lo, 4);
  cudaMalloc(&d_tk, 4); cudaMalloc(&d_rel, 4);
  cudaMemcpy(d_v, v.data(), 4 * B * 256, cudaMemcpyHostToDevice);
  cudaMemset(d_t, 0, 4); cudaMemset(d_tk, 0, 4); cudaMemset(d_rel, 0, 4);
  int hi0 = -1 << 30, lo0 = 1 << 30;
  cudaMemcpy(d_hi, &hi0, 4, cudaMemcpyHostToDevice); cudaMemcpy(d_lo, &lo0, 4, cudaMemcpyHostToDevice);
  lastBlock<<<B, 256>>>(d_v, d_p, d_tk, d_t, d_hi, d_lo, d_rel);
  int tot, hi, lo; unsigned rel;
  cudaMemcpy(&tot, d_t, 4, cudaMemcpyDeviceToHost); cudaMemcpy(&hi, d_hi, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&lo, d_lo, 4, cudaMemcpyDeviceToHost); cudaMemcpy(&rel, d_rel, 4, cudaMemcpyDeviceToHost);
  int wt = 0, wh = hi0, wl = lo0; unsigned wr = 0;
  for (int i = 0; i < B * 256; ++i) { wt += v[i]; wh = std::max(wh, v[i]); wl = std::min(wl, v[i]); wr += v[i] % 11 == 0; }
  if (tot != wt || hi != wh || lo != wl || rel != wr) ok = false;
  printf("lastBlock total %d max %d min %d mult11 %u\n", tot, hi, lo, rel);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
