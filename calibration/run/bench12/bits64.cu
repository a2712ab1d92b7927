// 64-bit integer heavy code: Miller-Rabin primality over 64-bit odd numbers (modular products by
// __umul64hi and a 128-bit remainder loop, data-dependent witness loops), a 64-bit hash mixing
// popcount, clz, bit reversal, funnel shifts, byte permutes and bfe/bfi (inline PTX), and a
// bit-serial 64-bit integer square root. Checked word for word against the host. Prints PASS or
// FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__host__ __device__ inline uint64_t mulhi64(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

// (a * b) mod m by the 128-bit product and shift-subtract (m < 2^63)
__host__ __device__ uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) {
  uint64_t hi = mulhi64(a, b), lo = a * b;
  // reduce hi:lo modulo m one bit at a time from the top of hi
  uint64_t r = hi % m;
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((lo >> i) & 1);
    if (r >= m) r -= m;
  }
  return r;
}

__host__ __device__ uint64_t powmod(uint64_t a, uint64_t e, uint64_t m) {
  uint64_t r = 1;
  a %= m;
  while (e) {
    if (e & 1) r = mulmod(r, a, m);
    a = mulmod(a, a, m);
    e >>= 1;
  }
  return r;
}

__host__ __device__ bool isPrime(uint64_t n) {
  if (n < 2) return false;
  const uint64_t small[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (uint64_t p : small) {
    if (n % p == 0) return n == p;
  }
  uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) { d >>= 1; ++s; }
  for (uint64_t a : small) {
    uint64_t x = powmod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool comp = true;
    for (int r = 1; r < s; ++r) {
      x = mulmod(x, x, n);
      if (x == n - 1) { comp = false; break; }
    }
    if (comp) return false;
  }
  return true;
}

__global__ void primes(const uint64_t *in, unsigned char *out, unsigned long long *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool p = isPrime(in[i]);
  out[i] = p;
  unsigned m = __ballot_sync(__activemask(), p);
  if ((threadIdx.x & 31) == __ffs(__activemask()) - 1) atomicAdd(count, (unsigned long long)__popc(m));
}

__device__ inline uint32_t bfe32(uint32_t x, uint32_t pos, uint32_t len) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}
__device__ inline uint64_t bfe64(uint64_t x, uint32_t pos, uint32_t len) {
  uint64_t r;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(x), "r"(pos), "r"(len));
  return r;
}
__device__ inline uint32_t bfi32(uint32_t ins, uint32_t base, uint32_t pos, uint32_t len) {
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(ins), "r"(base), "r"(pos), "r"(len));
  return r;
}

static uint32_t hbfe32(uint32_t x, uint32_t pos, uint32_t len) {
  pos &= 0xff; len &= 0xff;
  if (len == 0) return 0;
  if (pos >= 32) return 0;
  uint64_t v = (uint64_t)x >> pos;
  if (len < 32) v &= (1ull << len) - 1;
  return (uint32_t)v;
}
static uint64_t hbfe64(uint64_t x, uint32_t pos, uint32_t len) {
  pos &= 0xff; len &= 0xff;
  if (len == 0 || pos >= 64) return 0;
  uint64_t v = x >> pos;
  if (len < 64) v &= (1ull << len) - 1;
  return v;
}
static uint32_t hbfi32(uint32_t ins, uint32_t base, uint32_t pos, uint32_t len) {
  pos &= 0xff; len &= 0xff;
  uint32_t r = base;
  for (uint32_t i = 0; i < len && pos + i < 32; ++i) r = (r & ~(1u << (pos + i))) | (((ins >> i) & 1) << (pos + i));
  return r;
}
static uint64_t hbrev(uint64_t x) { uint64_t r = 0; for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1) << (63 - i); return r; }
static uint32_t hperm(uint32_t a, uint32_t b, uint32_t s) {
  uint64_t v = ((uint64_t)b << 32) | a;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) r |= (uint32_t)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}
static uint32_t hfshl(uint32_t lo, uint32_t hi, uint32_t sh) { sh &= 31; return sh ? (hi << sh) | (lo >> (32 - sh)) : hi; }
static uint32_t hfshr_clamp(uint32_t lo, uint32_t hi, uint32_t sh) {
  if (sh > 32) sh = 32;
  uint64_t v = ((uint64_t)hi << 32) | lo;
  return (uint32_t)(v >> sh);
}

__global__ void mix(const uint64_t *in, uint64_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t x = in[i];
  uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
  uint64_t h = x * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)__popcll(x) << 56;
  h ^= (uint64_t)__clzll(x | 1) << 48;
  h ^= __brevll(x);
  h += (uint64_t)__funnelshift_l(lo, hi, lo & 31) << 32 | __funnelshift_rc(hi, lo, hi);
  h ^= (uint64_t)__byte_perm(lo, hi, hi & 0x7777) << 16;
  h += bfe32(lo, hi & 63, (lo >> 8) & 63);
  h ^= bfe64(x, lo & 127, (hi >> 8) & 127) * 3;
  h += (uint64_t)bfi32(hi, lo, (hi >> 16) & 63, (lo >> 16) & 63) << 7;
  h ^= mulhi64(h, x | 1);
  h += __ffsll(x) + __clz(lo) + __popc(hi);
  out[i] = h;
}

static uint64_t hmix(uint64_t x) {
  uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
  uint64_t h = x * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)__builtin_popcountll(x) << 56;
  h ^= (uint64_t)__builtin_clzll(x | 1) << 48;
  h ^= hbrev(x);
  h += (uint64_t)hfshl(lo, hi, lo & 31) << 32 | hfshr_clamp(hi, lo, hi);
  h ^= (uint64_t)hperm(lo, hi, hi & 0x7777) << 16;
  h += hbfe32(lo, hi & 63, (lo >> 8) & 63);
  h ^= hbfe64(x, lo & 127, (hi >> 8) & 127) * 3;
  h += (uint64_t)hbfi32(hi, lo, (hi >> 16) & 63, (lo >> 16) & 63) << 7;
  h ^= mulhi64(h, x | 1);
  h += (x ? __builtin_ctzll(x) + 1 : 0) + (lo ? __builtin_clz(lo) : 32) + __builtin_popcount(hi);
  return h;
}

__host__ __device__ uint32_t isqrt64(uint64_t v) {
  uint64_t r = 0, bit = 1ull << 62;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= r + bit) { v -= r + bit; r = (r >> 1) + bit; } else r >>= 1;
    bit >>= 2;
  }
  return (uint32_t)r;
}

__global__ void roots(const uint64_t *in, uint32_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = isqrt64(in[i] >> (in[i] & 31));
}

int main() {
  const int np = 1 << 13, nm = 1 << 18;
  std::vector<uint64_t> p(np), m(nm);
  uint64_t s = 0x1234567887654321ull;
  auto next = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  for (int i = 0; i < np; ++i) {
    uint64_t v = next();
    // widths from 20 to 62 bits, odd
    v = (v >> (2 + i % 43)) | 1;
    if (i % 97 == 0) v = 4611686018427387847ull;         // a prime near 2^62
    if (i % 101 == 0) v = 3215031751ull;                 // a strong pseudoprime to 2,3,5,7
    p[i] = v;
  }
  for (int i = 0; i < nm; ++i) m[i] = next() >> (i % 5 == 0 ? (i / 5) % 64 : 0);
  uint64_t *dP, *dM, *dO; unsigned char *dF; unsigned long long *dC; uint32_t *dR;
  CK(cudaMalloc(&dP, np * 8)); CK(cudaMalloc(&dF, np)); CK(cudaMalloc(&dC, 8));
  CK(cudaMalloc(&dM, nm * 8)); CK(cudaMalloc(&dO, nm * 8)); CK(cudaMalloc(&dR, nm * 4));
  CK(cudaMemcpy(dP, p.data(), np * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dM, m.data(), nm * 8, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC, 0, 8));
  bool ok = true;

  primes<<<np / 128, 128>>>(dP, dF, dC, np);
  CK(cudaGetLastError());
  std::vector<unsigned char> f(np);
  unsigned long long c;
  CK(cudaMemcpy(f.data(), dF, np, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&c, dC, 8, cudaMemcpyDeviceToHost));
  int bad = 0, ec = 0;
  for (int i = 0; i < np; ++i) { bool e = isPrime(p[i]); ec += e; if (e != (bool)f[i]) ++bad; }
  printf("primes: %llu found (host %d), %d differ\n", c, ec, bad);
  ok &= bad == 0 && c == (unsigned long long)ec;

  mix<<<nm / 256, 256>>>(dM, dO, nm);
  CK(cudaGetLastError());
  std::vector<uint64_t> o(nm);
  CK(cudaMemcpy(o.data(), dO, nm * 8, cudaMemcpyDeviceToHost));
  bad = 0;
  uint64_t x = 0;
  for (int i = 0; i < nm; ++i) {
    uint64_t e = hmix(m[i]);
    if (e != o[i]) { if (bad < 4) printf("mix %d (%016llx): %016llx vs %016llx\n", i, (unsigned long long)m[i], (unsigned long long)o[i], (unsigned long long)e); ++bad; }
    x = x * 31 + o[i];
  }
  printf("mix: %d differ, checksum %016llx\n", bad, (unsigned long long)x);
  ok &= bad == 0;

  roots<<<nm / 128, 128>>>(dM, dR, nm);
  CK(cudaGetLastError());
  std::vector<uint32_t> r(nm);
  CK(cudaMemcpy(r.data(), dR, nm * 4, cudaMemcpyDeviceToHost));
  bad = 0;
  x = 0;
  for (int i = 0; i < nm; ++i) {
    uint64_t v = m[i] >> (m[i] & 31);
    uint64_t q = r[i];
    if (!(q * q <= v && (q + 1) * (q + 1) > v)) ++bad;
    x = x * 31 + q;
  }
  printf("roots: %d wrong, checksum %016llx\n", bad, (unsigned long long)x);
  ok &= bad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
