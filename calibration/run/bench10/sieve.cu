// A segmented sieve of Eratosthenes: the base primes below sqrt(limit) found by the host, each
// block sieving a 32768-number segment as a bit array of 512 words in shared memory (odd numbers
// only), a thread a base prime marking its multiples by shared `atomicOr` (the first multiple by
// an integer division, loops whose trip counts fall with the prime), then the primes counted by
// `__popc` of the inverted words and a shared reduction, twin primes by a shift across word
// boundaries within the segment (each word reads its neighbour), the segment's largest prime by `__clz` and a shared
// atomicMax; the counts added by global atomics. The host sieves the same range.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define SEG 32768u
#define WORDS (SEG / 64)

__global__ void sieveSeg(const unsigned *primes, int np, unsigned long long lo0, unsigned *count,
                         unsigned *twins, unsigned long long *largest) {
  __shared__ unsigned bits[WORDS + 1];
  __shared__ unsigned cnt, tw, big;
  unsigned long long lo = lo0 + (unsigned long long)blockIdx.x * SEG;
  for (int i = threadIdx.x; i <= WORDS; i += blockDim.x) bits[i] = 0;
  if (threadIdx.x == 0) { cnt = 0; tw = 0; big = 0; }
  __syncthreads();
  for (int k = threadIdx.x; k < np; k += blockDim.x) {
    unsigned long long p = primes[k];
    unsigned long long first = (lo + p - 1) / p * p;
    if (first < p * p) first = p * p;
    if ((first & 1) == 0) first += p;
    for (unsigned long long m = first; m < lo + SEG; m += 2 * p) {
      unsigned idx = (unsigned)((m - lo) >> 1);
      atomicOr(&bits[idx >> 5], 1u << (idx & 31));
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && lo == 0) bits[0] |= 1u;
  __syncthreads();
  unsigned c = 0, t = 0, b = 0;
  for (int w = threadIdx.x; w < WORDS; w += blockDim.x) {
    unsigned pr = ~bits[w];
    unsigned nx = w + 1 < WORDS ? ~bits[w + 1] : 0u;
    c += __popc(pr);
    t += __popc(pr & ((pr >> 1) | (nx << 31)));
    if (pr) b = max(b, (unsigned)(w * 32 + 31 - __clz(pr)));
  }
  atomicAdd(&cnt, c); atomicAdd(&tw, t); atomicMax(&big, b);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(count, cnt + (lo == 0 ? 1u : 0u));
    atomicAdd(twins, tw);
    atomicMax(largest, lo + 2ull * big + 1);
  }
}

int main() {
  const unsigned long long lo0s[2] = {0ull, 4000000000ull};
  const int nseg[2] = {32, 16};
  int bad = 0;
  for (int r = 0; r < 2; ++r) {
    unsigned long long lo0 = lo0s[r], hi = lo0 + (unsigned long long)nseg[r] * SEG;
    unsigned lim = 1;
    while ((unsigned long long)lim * lim < hi) ++lim;
    std::vector<char> small(lim + 1, 1);
    std::vector<unsigned> primes;
    for (unsigned i = 2; i <= lim; ++i)
      if (small[i]) { if (i > 2) primes.push_back(i); for (unsigned long long j = (unsigned long long)i * i; j <= lim; j += i) small[j] = 0; }
    std::vector<char> comp(hi - lo0, 0);
    for (unsigned p : primes)
      for (unsigned long long m = std::max((lo0 + p - 1) / p * p, (unsigned long long)p * p); m < hi; m += p) comp[m - lo0] = 1;
    unsigned want = 0, wtw = 0; unsigned long long wbig = 0;
    auto isp = [&](unsigned long long v) { return v >= 2 && v < hi && (v == 2 || (v & 1)) && !comp[v - lo0]; };
    for (unsigned long long v = lo0; v < hi; ++v)
      if (isp(v)) { want += (v & 1) || v == 2; if (v & 1) wbig = v; if ((v & 1) && (v - lo0) / SEG == (v + 2 - lo0) / SEG && isp(v + 2)) ++wtw; }
    unsigned *dp, *dc, *dt; unsigned long long *db;
    int np = (int)primes.size();
    CK(cudaMalloc(&dp, np * 4)); CK(cudaMalloc(&dc, 4)); CK(cudaMalloc(&dt, 4)); CK(cudaMalloc(&db, 8));
    CK(cudaMemcpy(dp, primes.data(), np * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dc, 0, 4)); CK(cudaMemset(dt, 0, 4)); CK(cudaMemset(db, 0, 8));
    sieveSeg<<<nseg[r], 256>>>(dp, np, lo0, dc, dt, db);
    CK(cudaGetLastError());
    unsigned c, t; unsigned long long b;
    CK(cudaMemcpy(&c, dc, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&t, dt, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&b, db, 8, cudaMemcpyDeviceToHost));
    printf("sieve [%llu, %llu): %d base primes, %u primes (host %u), %u twins (host %u), largest %llu (host %llu)\n",
           lo0, hi, np, c, want, t, wtw, b, wbig);
    bad += (c != want) + (t != wtw) + (b != wbig);
    CK(cudaFree(dp)); CK(cudaFree(dc)); CK(cudaFree(dt)); CK(cudaFree(db));
  }
  printf("sieve %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
