// Multi-precision integers: 256 x 256 -> 512-bit products a thread a product (eight 32-bit limbs
// each read as two uint4, schoolbook columns by lo multiplies and __umulhi into a 64-bit
// accumulator with a carry word), then 1024-bit a * s + b a warp a number, a lane a limb: the
// product's high words moved up a lane by __shfl_up_sync, two additions whose carries are resolved
// across the warp at once by ballots (generate and propagate masks, one 32-bit add ripples the
// carries), the carry out of the top limb from lane 31. Checked against the host's own arithmetic.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

struct U256 { uint4 lo, hi; };

__global__ void mul256(const U256 *a, const U256 *b, unsigned *prod, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const U256 A = a[t], B = b[t];
  const unsigned x[8] = {A.lo.x, A.lo.y, A.lo.z, A.lo.w, A.hi.x, A.hi.y, A.hi.z, A.hi.w};
  const unsigned y[8] = {B.lo.x, B.lo.y, B.lo.z, B.lo.w, B.hi.x, B.hi.y, B.hi.z, B.hi.w};
  unsigned long long acc = 0;   // the column's low 64 bits
  unsigned carry = 0;           // bits 64..95 of the column
#pragma unroll
  for (int col = 0; col < 15; ++col) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int j = col - i;
      if (j < 0 || j > 7) continue;
      const unsigned long long p = ((unsigned long long)__umulhi(x[i], y[j]) << 32) | (x[i] * y[j]);
      const unsigned long long s = acc + p;
      carry += s < acc;
      acc = s;
    }
    prod[(size_t)col * n + t] = (unsigned)acc;
    acc = (acc >> 32) | ((unsigned long long)carry << 32);
    carry = 0;
  }
  prod[(size_t)15 * n + t] = (unsigned)acc;
}

// carries into each lane of a warp-wide add whose lanes generate (overflowed) or propagate (all ones)
__device__ __forceinline__ unsigned carriesIn(bool gen, bool prop, unsigned *out) {
  const unsigned G = __ballot_sync(0xffffffffu, gen), P = __ballot_sync(0xffffffffu, prop);
  const unsigned C = (P + (G << 1)) ^ P;
  *out = (G >> 31) | ((P >> 31) & (C >> 31));
  return C;
}

__global__ void mulAdd1024(const unsigned *a, const unsigned *s, const unsigned *b, unsigned *r, unsigned *top, int n) {
  const int lane = threadIdx.x & 31;
  const int num = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (num >= n) return;   // whole warps
  const unsigned ai = a[num * 32 + lane], bi = b[num * 32 + lane], sc = s[num];
  const unsigned lo = ai * sc, hi = __umulhi(ai, sc);
  const unsigned hiTop = __shfl_sync(0xffffffffu, hi, 31);
  unsigned hiBelow = __shfl_up_sync(0xffffffffu, hi, 1);
  if (lane == 0) hiBelow = 0;
  // first: lo + hiBelow
  unsigned s1 = lo + hiBelow, out1;
  unsigned C = carriesIn(s1 < lo, s1 == 0xffffffffu, &out1);
  s1 += (C >> lane) & 1u;
  // second: + b
  unsigned s2 = s1 + bi, out2;
  C = carriesIn(s2 < s1, s2 == 0xffffffffu, &out2);
  s2 += (C >> lane) & 1u;
  r[num * 32 + lane] = s2;
  if (lane == 31) top[num] = hiTop + out1 + out2;
}

int main() {
  unsigned st = 20261202u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  auto limb = [&](int i) -> unsigned {   // mixed: all ones, zeros, random
    unsigned r = rnd() % 8;
    return r == 0 ? 0xffffffffu : r == 1 ? 0u : r == 2 ? (rnd() | 0xffff0000u) : rnd() ^ (unsigned)i;
  };
  int bad = 0;
  {
    const int n = 20000;
    std::vector<unsigned> A(n * 8), B(n * 8), P((size_t)n * 16);
    for (int t = 0; t < n; ++t)
      for (int k = 0; k < 8; ++k) { A[t * 8 + k] = limb(k); B[t * 8 + k] = (t % 97 == 0) ? 0xffffffffu : limb(k + 8); }
    U256 *dA, *dB; unsigned *dP;
    CK(cudaMalloc(&dA, n * 32)); CK(cudaMalloc(&dB, n * 32)); CK(cudaMalloc(&dP, (size_t)n * 64));
    CK(cudaMemcpy(dA, A.data(), n * 32, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), n * 32, cudaMemcpyHostToDevice));
    mul256<<<(n + 127) / 128, 128>>>(dA, dB, dP, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(P.data(), dP, (size_t)n * 64, cudaMemcpyDeviceToHost));
    unsigned h = 2166136261u; int wrong = 0;
    for (int t = 0; t < n; ++t) {
      unsigned ref[16] = {0};
      for (int i = 0; i < 8; ++i) {
        uint64_t c = 0;
        for (int j = 0; j < 8; ++j) {
          uint64_t v = (uint64_t)A[t * 8 + i] * B[t * 8 + j] + ref[i + j] + c;
          ref[i + j] = (unsigned)v; c = v >> 32;
        }
        ref[i + 8] = (unsigned)c;
      }
      for (int k = 0; k < 16; ++k) { wrong += ref[k] != P[(size_t)k * n + t]; h = (h ^ P[(size_t)k * n + t]) * 16777619u; }
    }
    printf("mul256: %d products, hash %08x, wrong limbs %d\n", n, h, wrong);
    bad += wrong;
    CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dP));
  }
  {
    const int n = 6000;
    std::vector<unsigned> A(n * 32), Bv(n * 32), S(n), R(n * 32), T(n);
    for (int t = 0; t < n; ++t) {
      const int kind = t % 5;
      S[t] = kind == 0 ? 0xffffffffu : kind == 1 ? 1u : rnd();
      for (int k = 0; k < 32; ++k) {
        A[t * 32 + k] = kind == 1 ? 0xffffffffu : limb(k);
        Bv[t * 32 + k] = kind == 1 ? (k == 0 ? 1u : 0u) : kind == 2 ? 0xffffffffu : limb(k + 32);
      }
    }
    unsigned *dA, *dS, *dB, *dR, *dT;
    CK(cudaMalloc(&dA, n * 128)); CK(cudaMalloc(&dB, n * 128)); CK(cudaMalloc(&dR, n * 128));
    CK(cudaMalloc(&dS, n * 4)); CK(cudaMalloc(&dT, n * 4));
    CK(cudaMemcpy(dA, A.data(), n * 128, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, Bv.data(), n * 128, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dS, S.data(), n * 4, cudaMemcpyHostToDevice));
    mulAdd1024<<<(n * 32 + 255) / 256, 256>>>(dA, dS, dB, dR, dT, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(R.data(), dR, n * 128, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(T.data(), dT, n * 4, cudaMemcpyDeviceToHost));
    unsigned h = 2166136261u; int wrong = 0; unsigned tops = 0;
    for (int t = 0; t < n; ++t) {
      uint64_t c = 0;
      for (int k = 0; k < 32; ++k) {
        uint64_t v = (uint64_t)A[t * 32 + k] * S[t] + Bv[t * 32 + k] + c;
        wrong += (unsigned)v != R[t * 32 + k];
        h = (h ^ R[t * 32 + k]) * 16777619u;
        c = v >> 32;
      }
      wrong += (unsigned)c != T[t];
      tops += T[t];
    }
    printf("mulAdd1024: %d numbers, hash %08x, top words sum %u, wrong %d\n", n, h, tops, wrong);
    bad += wrong;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
