// Polynomial products by the number-theoretic transform modulo 998244353 (= 119 * 2^23 + 1,
// generator 3): eight pairs of polynomials of 2,048 coefficients, transforms of 4,096 points.
// A bit-reversal permutation by __brev; butterflies of the stages up to 2,048 points in shared
// memory (1,024 threads a block, a barrier a stage, twiddles from a global table through __ldg,
// products reduced by 64-bit % by the constant prime); the last stage a thread a butterfly in
// global memory; a pointwise product; the inverse transform by the same kernels with inverse
// twiddles and a scaling by n^-1. Checked against the host's schoolbook products.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define P 998244353u
#define LOGN 12
#define NN (1 << LOGN)
#define SEG 2048
#define BATCH 8

__host__ __device__ unsigned mulmod(unsigned a, unsigned b) { return (unsigned)((unsigned long long)a * b % P); }
__host__ __device__ unsigned addmod(unsigned a, unsigned b) { unsigned s = a + b; return s >= P ? s - P : s; }
__host__ __device__ unsigned submod(unsigned a, unsigned b) { return a >= b ? a - b : a + P - b; }

__global__ void bitrev(const unsigned *in, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
  out[b * NN + (__brev(i) >> (32 - LOGN))] = in[b * NN + i];
}

// tw[len/2 + j] = w_len^j for len = 2, 4, ..., NN (the table has NN entries)
__global__ void stagesShared(unsigned *a, const unsigned *__restrict__ tw) {
  __shared__ unsigned s[SEG];
  unsigned *seg = a + blockIdx.y * NN + blockIdx.x * SEG;
  int t = threadIdx.x;
  s[t] = seg[t];
  s[t + SEG / 2] = seg[t + SEG / 2];
  __syncthreads();
  for (int half = 1; half < SEG; half <<= 1) {
    int j = t & (half - 1), i = ((t - j) << 1) + j;
    unsigned w = __ldg(&tw[half + j]);
    unsigned u = s[i], v = mulmod(s[i + half], w);
    s[i] = addmod(u, v);
    s[i + half] = submod(u, v);
    __syncthreads();
  }
  seg[t] = s[t];
  seg[t + SEG / 2] = s[t + SEG / 2];
}

__global__ void stageGlobal(unsigned *a, const unsigned *__restrict__ tw, int half) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *x = a + blockIdx.y * NN;
  int j = t & (half - 1), i = ((t - j) << 1) + j;
  unsigned u = x[i], v = mulmod(x[i + half], __ldg(&tw[half + j]));
  x[i] = addmod(u, v);
  x[i + half] = submod(u, v);
}

__global__ void pointwise(unsigned *a, const unsigned *b, unsigned scale) {
  int i = blockIdx.y * NN + blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = mulmod(mulmod(a[i], b[i]), scale);
}

static unsigned powmod(unsigned b, unsigned e) { unsigned r = 1; while (e) { if (e & 1) r = mulmod(r, b); b = mulmod(b, b); e >>= 1; } return r; }

int main() {
  const int HALF = NN / 2;
  std::vector<unsigned> A(BATCH * NN, 0), Bv(BATCH * NN, 0);
  unsigned s = 31337;
  for (int b = 0; b < BATCH; b++)
    for (int i = 0; i < HALF; i++) {
      s = s * 1664525u + 1013904223u; A[b * NN + i] = s % P;
      s = s * 1664525u + 1013904223u; Bv[b * NN + i] = (b & 1) ? s % 1000 : s % P;
    }
  std::vector<unsigned> tw(NN), itw(NN);
  for (int half = 1; half < NN; half <<= 1) {
    unsigned w = powmod(3, (P - 1) / (2 * half)), iw = powmod(w, P - 2), c = 1, ic = 1;
    for (int j = 0; j < half; j++) { tw[half + j] = c; itw[half + j] = ic; c = mulmod(c, w); ic = mulmod(ic, iw); }
  }
  unsigned *dA, *dB, *dT, *dTw, *dItw;
  size_t bytes = BATCH * NN * sizeof(unsigned);
  CK(cudaMalloc(&dA, bytes)); CK(cudaMalloc(&dB, bytes)); CK(cudaMalloc(&dT, bytes));
  CK(cudaMalloc(&dTw, NN * sizeof(unsigned))); CK(cudaMalloc(&dItw, NN * sizeof(unsigned)));
  CK(cudaMemcpy(dTw, tw.data(), NN * sizeof(unsigned), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dItw, itw.data(), NN * sizeof(unsigned), cudaMemcpyHostToDevice));
  auto forward = [&](unsigned *host, unsigned *dst, const unsigned *table) {
    if (host) CK(cudaMemcpy(dT, host, bytes, cudaMemcpyHostToDevice));
    else CK(cudaMemcpy(dT, dst, bytes, cudaMemcpyDeviceToDevice));
    bitrev<<<dim3(NN / 256, BATCH), 256>>>(dT, dst);
    stagesShared<<<dim3(NN / SEG, BATCH), SEG / 2>>>(dst, table);
    for (int half = SEG; half < NN; half <<= 1) stageGlobal<<<dim3(NN / 2 / 256, BATCH), 256>>>(dst, table, half);
    CK(cudaGetLastError());
  };
  forward(A.data(), dA, dTw);
  forward(Bv.data(), dB, dTw);
  pointwise<<<dim3(NN / 256, BATCH), 256>>>(dA, dB, powmod(NN, P - 2));
  forward(nullptr, dA, dItw);
  std::vector<unsigned> C(BATCH * NN);
  CK(cudaMemcpy(C.data(), dA, bytes, cudaMemcpyDeviceToHost));
  bool ok = true; unsigned long long check = 0;
  for (int b = 0; b < BATCH; b++) {
    std::vector<unsigned> ref(NN, 0);
    for (int i = 0; i < HALF; i++)
      for (int j = 0; j < HALF; j++) ref[i + j] = addmod(ref[i + j], mulmod(A[b * NN + i], Bv[b * NN + j]));
    for (int k = 0; k < NN; k++) { ok = ok && C[b * NN + k] == ref[k]; check = check * 31 + C[b * NN + k]; }
  }
  printf("%d products of %d-coefficient polynomials mod %u: checksum %llu, c[0][1] %u\n", BATCH, HALF, P, check, C[1]);
  printf("ntt: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
