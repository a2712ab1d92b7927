// Integer SIMD and bit intrinsics, each against the host's own model: __vadd4, __vsub4,
// __vabsdiffu4, __vmaxu4, __dp4a (signed and unsigned), __dp2a_lo / __dp2a_hi, __sad / __usad,
// __byte_perm, __funnelshift_l / _r / _lc, __brev / __brevll, __ffs / __ffsll, __clz / __clzll,
// __popc / __popcll, __umulhi / __mulhi / __umul64hi, __mul24 / __umul24, __hadd / __rhadd.
#include <cstdio>
#include <cstdint>
#include <vector>

__global__ void simd(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned* o = out + i * 10;
  o[0] = __vadd4(x, y);
  o[1] = __vsub4(x, y);
  o[2] = __vabsdiffu4(x, y);
  o[3] = __vmaxu4(x, y);
  o[4] = (unsigned)__dp4a((int)x, (int)y, (int)i - 100);
  o[5] = __dp4a(x, y, (unsigned)i);
  o[6] = (unsigned)__dp2a_lo((int)x, (int)y, 7);
  o[7] = (unsigned)__dp2a_hi((int)x, (int)y, -7);
  o[8] = __sad((int)x, (int)y, 3u);
  o[9] = __usad(x, y, 5u);
}

__global__ void bitops(const unsigned* a, const unsigned* b, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned long long w = ((unsigned long long)x << 32) | y;
  unsigned long long* o = out + i * 16;
  o[0] = __byte_perm(x, y, 0x7531 ^ (i & 0x3333));
  o[1] = __funnelshift_l(x, y, i);
  o[2] = __funnelshift_r(x, y, i * 3);
  o[3] = __funnelshift_lc(x, y, i % 40);
  o[4] = __brev(x);
  o[5] = __brevll(w);
  o[6] = (unsigned)__ffs((int)(x & (y << 3)));
  o[7] = (unsigned)__ffsll((long long)(w & (w >> 17)));
  o[8] = (unsigned)__clz((int)(x >> (i % 33 == 32 ? 0 : i % 33 % 32)));
  o[9] = (unsigned)__clzll((long long)(w >> (i % 64)));
  o[10] = (unsigned)__popc(x ^ y) + 100u * (unsigned)__popcll(w * 3);
  o[11] = __umulhi(x, y);
  o[12] = (unsigned)__mulhi((int)x, (int)y);
  o[13] = __umul64hi(w, w ^ 0x9e3779b97f4a7c15ull);
  o[14] = (unsigned)__mul24((int)x, (int)y) ^ ((unsigned long long)__umul24(x, y) << 32);
  o[15] = (unsigned)__hadd((int)x, (int)y) ^ ((unsigned long long)__urhadd(x, y) << 32);
}

static unsigned bytes(unsigned v, int k) { return (v >> (8 * k)) & 255; }
static int sbyte(unsigned v, int k) { return (int8_t)bytes(v, k); }
static int shalf(unsigned v, int k) { return (int16_t)((v >> (16 * k)) & 0xffff); }

int main() {
  const int n = 2048;
  std::vector<unsigned> a(n), b(n);
  uint64_t s = 0x1234567;
  for (int i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull; a[i] = (unsigned)(s >> 32);
    s = s * 6364136223846793005ull + 1442695040888963407ull; b[i] = (unsigned)(s >> 29);
    if (i % 9 == 0) a[i] >>= (i % 31);
    if (i % 13 == 0) b[i] = 0;
  }
  unsigned *d_a, *d_b, *d_o; unsigned long long* d_w;
  cudaMalloc(&d_a, 4 * n); cudaMalloc(&d_b, 4 * n); cudaMalloc(&d_o, 40 * n); cudaMalloc(&d_w, 128 * n);
  cudaMemcpy(d_a, a.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), 4 * n, cudaMemcpyHostToDevice);
  simd<<<(n + 127) / 128, 128>>>(d_a, d_b, d_o, n);
  bitops<<<(n + 255) / 256, 256>>>(d_a, d_b, d_w, n);
  std::vector<unsigned> o(10 * n);
  std::vector<unsigned long long> w(16 * n);
  cudaMemcpy(o.data(), d_o, 40 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(w.data(), d_w, 128 * n, cudaMemcpyDeviceToHost);
  int bad[26] = {};
  unsigned long long c1 = 0, c2 = 0;
  for (int i = 0; i < n; ++i) {
    unsigned x = a[i], y = b[i];
    unsigned e[10] = {};
    for (int k = 0; k < 4; ++k) {
      unsigned bx = bytes(x, k), by = bytes(y, k);
      e[0] |= ((bx + by) & 255) << (8 * k);
      e[1] |= ((bx - by) & 255) << (8 * k);
      e[2] |= (bx > by ? bx - by : by - bx) << (8 * k);
      e[3] |= (bx > by ? bx : by) << (8 * k);
    }
    int dp = i - 100; unsigned udp = i;
    for (int k = 0; k < 4; ++k) { dp += sbyte(x, k) * sbyte(y, k); udp += bytes(x, k) * bytes(y, k); }
    e[4] = dp; e[5] = udp;
    e[6] = 7 + shalf(x, 0) * sbyte(y, 0) + shalf(x, 1) * sbyte(y, 1);
    e[7] = -7 + shalf(x, 0) * sbyte(y, 2) + shalf(x, 1) * sbyte(y, 3);
    long long d = (long long)(int)x - (long long)(int)y; e[8] = (unsigned)((d < 0 ? -d : d) + 3);
    e[9] = (x > y ? x - y : y - x) + 5;
    for (int k = 0; k < 10; ++k) { if (o[i * 10 + k] != e[k]) ++bad[k]; c1 = c1 * 1000003ull + o[i * 10 + k]; }
    uint64_t ww = ((uint64_t)x << 32) | y;
    uint64_t f[16];
    unsigned sel = 0x7531 ^ (i & 0x3333);
    uint64_t pool = ((uint64_t)y << 32) | x;
    unsigned bp = 0;
    for (int k = 0; k < 4; ++k) bp |= (unsigned)((pool >> (8 * ((sel >> (4 * k)) & 7))) & 255) << (8 * k);
    f[0] = bp;
    uint64_t hl = ((uint64_t)y << 32) | x;
    f[1] = (unsigned)((hl << (i & 31)) >> 32);
    f[2] = (unsigned)(hl >> ((i * 3) & 31));
    int sc = i % 40 > 32 ? 32 : i % 40;
    f[3] = (unsigned)((hl << sc) >> 32);
    unsigned r = 0; for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1) << (31 - k);
    f[4] = r;
    uint64_t r2 = 0; for (int k = 0; k < 64; ++k) r2 |= ((ww >> k) & 1) << (63 - k);
    f[5] = r2;
    unsigned m = x & (y << 3); f[6] = m ? __builtin_ctz(m) + 1 : 0;
    uint64_t m2 = ww & (ww >> 17); f[7] = m2 ? __builtin_ctzll(m2) + 1 : 0;
    unsigned cz = x >> (i % 33 == 32 ? 0 : i % 33 % 32); f[8] = cz ? __builtin_clz(cz) : 32;
    uint64_t cz2 = ww >> (i % 64); f[9] = cz2 ? __builtin_clzll(cz2) : 64;
    f[10] = __builtin_popcount(x ^ y) + 100u * __builtin_popcountll(ww * 3);
    f[11] = (unsigned)(((uint64_t)x * y) >> 32);
    f[12] = (unsigned)(((long long)(int)x * (int)y) >> 32);
    f[13] = (uint64_t)(((unsigned __int128)ww * (ww ^ 0x9e3779b97f4a7c15ull)) >> 64);
    int x24 = ((int)(x << 8)) >> 8, y24 = ((int)(y << 8)) >> 8;
    f[14] = (unsigned)x24 * (unsigned)y24 ^ ((uint64_t)((x & 0xffffff) * (y & 0xffffff)) << 32);
    f[15] = (unsigned)(int)(((long long)(int)x + (int)y) >> 1) ^ ((uint64_t)(unsigned)(((uint64_t)x + y + 1) >> 1) << 32);
    for (int k = 0; k < 16; ++k) { if (w[i * 16 + k] != f[k]) ++bad[10 + k]; c2 = c2 * 1000003ull + w[i * 16 + k]; }
  }
  int nb = 0;
  for (int k = 0; k < 26; ++k) if (bad[k]) { printf("op %d: %d differ\n", k, bad[k]); nb += bad[k]; }
  printf("simd check %llu bits check %llu\n", c1, c2);
  printf("%s\n", nb ? "FAIL" : "PASS");
  return nb ? 1 : 0;
}
