// Which NaN a double fma returns when its b and c operands are both NaNs (and a is one or not):
// fma(y, n, m), fma(n, m, p) per thread over NaNs of random sign and payload, quiet and
// signalling; printed as bits with the machine code's operand order checked by cuobjdump.
#include <cstdio>
#include <cstdint>
#include <cstring>
__device__ double nanOf(unsigned lo, unsigned hi) {
  unsigned long long b = (0x7ff0000000000000ull | ((unsigned long long)(hi & 0x800fffffu) << 32) | lo);
  if ((b & 0x000fffffffffffffull) == 0) b |= 1;
  return __longlong_as_double((long long)b);
}
__global__ void k(const unsigned *in, unsigned long long *out) {
  int i = threadIdx.x;
  double n = nanOf(in[6 * i], in[6 * i + 1]);
  double m = nanOf(in[6 * i + 2], in[6 * i + 3]);
  double p = nanOf(in[6 * i + 4], in[6 * i + 5]);
  double y = (double)(int)in[6 * i] * 0.25 + 1.0;
  out[4 * i] = (unsigned long long)__double_as_longlong(__fma_rn(y, n, m));
  out[4 * i + 1] = (unsigned long long)__double_as_longlong(__fma_rn(n, m, p));
  out[4 * i + 2] = (unsigned long long)__double_as_longlong(__fma_rn(y, m, n));
  out[4 * i + 3] = (unsigned long long)__double_as_longlong(__fma_rn(-y, n, -m));
}
int main() {
  const int T = 64;
  unsigned h[6 * T];
  unsigned s = 2463534242u;
  for (int i = 0; i < 6 * T; ++i) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; h[i] = s; }
  unsigned *din; unsigned long long *dout;
  cudaMalloc(&din, sizeof h); cudaMalloc(&dout, 4 * T * 8);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, T>>>(din, dout);
  unsigned long long o[4 * T];
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < T; ++i)
    printf("%d %08x%08x %08x%08x %08x%08x %016llx %016llx %016llx %016llx\n", i, h[6*i+1], h[6*i], h[6*i+3], h[6*i+2], h[6*i+5], h[6*i+4], o[4*i], o[4*i+1], o[4*i+2], o[4*i+3]);
  return 0;
}
