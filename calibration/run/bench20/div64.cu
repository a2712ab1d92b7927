// 64-bit integer division and remainder by run-time values (ptxas calls a subroutine with its
// own branches, and tests first whether both operands fit in 32 bits): Euclid's algorithm on
// 64-bit pairs a thread (a data-dependent loop of `%`), counting its steps; signed quotients and
// remainders of mixed-sign pairs, warps of small operands, of large ones and of both mixed; a
// number written in a run-time base (2-36) by repeated `/` and `%` into a digit string in local
// memory, read back by a Horner loop. Checked exactly against the host.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__global__ void gcd64(const unsigned long long *a, const unsigned long long *b, unsigned long long *g, int *steps, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  int k = 0;
  while (y != 0) { const unsigned long long t = x % y; x = y; y = t; ++k; }
  g[i] = x;
  steps[i] = k;
}

__global__ void sdiv(const long long *a, const long long *b, long long *q, long long *r, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const long long x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
}

__global__ void radix(const unsigned long long *v, const int *base, unsigned long long *back, int *len, unsigned *dsum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = v[i];
  const unsigned long long b = base[i];
  unsigned char dig[64];
  int m = 0;
  do { dig[m++] = (unsigned char)(x % b); x /= b; } while (x != 0);
  unsigned long long y = 0;
  unsigned s = 0;
  for (int j = m - 1; j >= 0; --j) { y = y * b + dig[j]; s += dig[j]; }
  back[i] = y;
  len[i] = m;
  atomicAdd(dsum, s);
}

int main() {
  uint64_t st = 0x243F6A8885A308D3ull;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; };
  const int n = 32 * 128;
  std::vector<unsigned long long> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    const int w = i / 32;
    const unsigned long long common = 1 + rnd() % 1000;
    switch (w % 3) {
      case 0: a[i] = (rnd() % 4000000000ull) * common; b[i] = (rnd() % 3000000ull) * common; break;   // mostly under 2^32 at the end
      case 1: a[i] = rnd() | (1ull << 63); b[i] = rnd() >> (rnd() % 40); break;                         // large
      default: a[i] = (i % 2) ? rnd() : rnd() % 100000; b[i] = (i % 5) ? rnd() % 70000 + 1 : rnd(); break;
    }
  }
  unsigned long long *da, *db, *dg; int *dk;
  CK(cudaMalloc(&da, n * 8)); CK(cudaMalloc(&db, n * 8)); CK(cudaMalloc(&dg, n * 8)); CK(cudaMalloc(&dk, n * 4));
  CK(cudaMemcpy(da, a.data(), n * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), n * 8, cudaMemcpyHostToDevice));
  gcd64<<<n / 128, 128>>>(da, db, dg, dk, n);
  CK(cudaGetLastError());
  std::vector<unsigned long long> g(n); std::vector<int> k(n);
  CK(cudaMemcpy(g.data(), dg, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(k.data(), dk, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long ks = 0; unsigned long long gx = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long x = a[i], y = b[i]; int c = 0;
    while (y) { unsigned long long t = x % y; x = y; y = t; ++c; }
    if (x != g[i] || c != k[i]) ++bad;
    ks += k[i]; gx = gx * 31 + g[i];
  }
  printf("gcd64: %d of %d differ, steps %lld, hash %016llx\n", bad, n, ks, gx);

  const int sn = 48 * 128;
  std::vector<long long> sa(sn), sb(sn);
  for (int i = 0; i < sn; ++i) {
    const int w = i / 32, lane = i % 32;
    long long x = (long long)rnd(), y = (long long)rnd();
    switch (w % 4) {
      case 0: x %= 1000000; y = y % 5000 + (y % 5000 >= 0 ? 1 : -1); break;          // small, both signs
      case 1: y >>= (rnd() % 50); if (y == 0) y = 7; break;                          // large
      case 2: if (lane % 8 == 0) { y %= 100; if (y == 0) y = -3; } else { x %= 100000; y = y % 300 + 301; } break;
      default: y = (lane % 2) ? -1 : ((lane % 3) ? 1 : (long long)(rnd() >> 33) + 2); break;
    }
    if (x == INT64_MIN && y == -1) y = 1;
    sa[i] = x; sb[i] = y;
  }
  long long *dsa, *dsb, *dq, *dr;
  CK(cudaMalloc(&dsa, sn * 8)); CK(cudaMalloc(&dsb, sn * 8)); CK(cudaMalloc(&dq, sn * 8)); CK(cudaMalloc(&dr, sn * 8));
  CK(cudaMemcpy(dsa, sa.data(), sn * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dsb, sb.data(), sn * 8, cudaMemcpyHostToDevice));
  sdiv<<<sn / 128, 128>>>(dsa, dsb, dq, dr, sn);
  CK(cudaGetLastError());
  std::vector<long long> q(sn), r(sn);
  CK(cudaMemcpy(q.data(), dq, sn * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dr, sn * 8, cudaMemcpyDeviceToHost));
  int bad2 = 0; unsigned long long qh = 0;
  for (int i = 0; i < sn; ++i) {
    if (q[i] != sa[i] / sb[i] || r[i] != sa[i] % sb[i]) ++bad2;
    qh = qh * 1099511628211ull ^ (unsigned long long)q[i] ^ ((unsigned long long)r[i] << 7);
  }
  printf("sdiv: %d of %d differ, hash %016llx\n", bad2, sn, qh);

  const int rn = 16 * 128;
  std::vector<unsigned long long> v(rn); std::vector<int> base(rn);
  for (int i = 0; i < rn; ++i) { v[i] = rnd() >> (rnd() % 64); base[i] = 2 + (int)(rnd() % 35); }
  unsigned long long *dv, *dback; int *dbase, *dlen; unsigned *dds;
  CK(cudaMalloc(&dv, rn * 8)); CK(cudaMalloc(&dback, rn * 8)); CK(cudaMalloc(&dbase, rn * 4));
  CK(cudaMalloc(&dlen, rn * 4)); CK(cudaMalloc(&dds, 4));
  CK(cudaMemcpy(dv, v.data(), rn * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dbase, base.data(), rn * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dds, 0, 4));
  radix<<<rn / 128, 128>>>(dv, dbase, dback, dlen, dds, rn);
  CK(cudaGetLastError());
  std::vector<unsigned long long> back(rn); std::vector<int> len(rn); unsigned gds = 0;
  CK(cudaMemcpy(back.data(), dback, rn * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(len.data(), dlen, rn * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&gds, dds, 4, cudaMemcpyDeviceToHost));
  int bad3 = 0; unsigned hs = 0; long long ls = 0;
  for (int i = 0; i < rn; ++i) {
    unsigned long long x = v[i]; int m = 0;
    do { hs += (unsigned)(x % base[i]); x /= base[i]; ++m; } while (x);
    if (back[i] != v[i] || len[i] != m) ++bad3;
    ls += len[i];
  }
  printf("radix: %d of %d differ, digits %lld, digit sum %u\n", bad3, rn, ls, gds);
  const bool ok = bad == 0 && bad2 == 0 && bad3 == 0 && hs == gds;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
