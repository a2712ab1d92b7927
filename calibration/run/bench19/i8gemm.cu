// An int8 GEMM by __dp4a: A (M x K) row-major, B stored transposed (N x K) so four K-consecutive
// bytes of both are one 32-bit word; 16 x 16 blocks, K in tiles of 64 bytes (16 words) staged in
// shared memory (B's tile padded to 17 words a row), a partial last K tile and partial edge tiles
// zero-filled, sizes that are not multiples of the tiles (200 x 136 x 260). The signed product
// requantised to int8 by a multiply, a rounding shift and a clamp; then unsigned bytes by the
// unsigned __dp4a with a bias row added from __constant__ memory. Checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int T = 16, KW = 16;   // tile words along K
__constant__ int bias[256];

template <bool SIGNED>
__global__ void gemm(const int *A, const int *Bt, int M, int N, int KWords, int *C, signed char *Q, int mult, int shift) {
  __shared__ int As[T][KW];
  __shared__ int Bs[T][KW + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  int acc = 0;
  for (int k0 = 0; k0 < KWords; k0 += KW) {
    const int ar = blockIdx.y * T + ty, br = blockIdx.x * T + ty;
    As[ty][tx] = (ar < M && k0 + tx < KWords) ? A[ar * KWords + k0 + tx] : 0;
    Bs[ty][tx] = (br < N && k0 + tx < KWords) ? Bt[br * KWords + k0 + tx] : 0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < KW; ++k) {
      if (SIGNED) acc = __dp4a(As[ty][k], Bs[tx][k], acc);
      else acc = (int)__dp4a((unsigned)As[ty][k], (unsigned)Bs[tx][k], (unsigned)acc);
    }
    __syncthreads();
  }
  if (row < M && col < N) {
    if (SIGNED) {
      C[row * N + col] = acc;
      long long q = ((long long)acc * mult + (1ll << (shift - 1))) >> shift;
      Q[row * N + col] = (signed char)max(-128ll, min(127ll, q));
    } else {
      C[row * N + col] = acc + bias[col & 255];
    }
  }
}

int main() {
  const int M = 200, N = 136, K = 260, KWd = K / 4;
  unsigned st = 424242u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  std::vector<signed char> A(M * K), B(N * K);
  for (auto &x : A) x = (signed char)(rnd() & 0xff);
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k) B[j * K + k] = j % 17 == 0 ? (signed char)-128 : (signed char)((int)(rnd() % 61) - 30);
  std::vector<int> hb(256);
  for (auto &x : hb) x = (int)(rnd() % 2001) - 1000;
  int *dA, *dB, *dC; signed char *dQ;
  CK(cudaMalloc(&dA, M * K)); CK(cudaMalloc(&dB, N * K)); CK(cudaMalloc(&dC, M * N * 4)); CK(cudaMalloc(&dQ, M * N));
  CK(cudaMemcpy(dA, A.data(), M * K, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), N * K, cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(bias, hb.data(), 256 * 4));
  const dim3 grid((N + T - 1) / T, (M + T - 1) / T), block(T, T);
  const int mult = 1177, shift = 17;
  int bad = 0;
  std::vector<int> C(M * N); std::vector<signed char> Q(M * N);
  gemm<true><<<grid, block>>>(dA, dB, M, N, KWd, dC, dQ, mult, shift);
  CK(cudaGetLastError());
  CK(cudaMemcpy(C.data(), dC, M * N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(Q.data(), dQ, M * N, cudaMemcpyDeviceToHost));
  {
    int wrong = 0, sat = 0; long long sum = 0; unsigned h = 2166136261u;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int acc = 0;
        for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[j * K + k];
        long long q = ((long long)acc * mult + (1ll << (shift - 1))) >> shift;
        q = q < -128 ? -128 : q > 127 ? 127 : q;
        wrong += acc != C[i * N + j] || q != Q[i * N + j];
        sat += q == -128 || q == 127;
        sum += C[i * N + j];
        h = (h ^ (unsigned char)Q[i * N + j]) * 16777619u;
      }
    printf("signed: %d x %d x %d, sum %lld, saturated %d, hash %08x, wrong %d\n", M, N, K, sum, sat, h, wrong);
    bad += wrong;
  }
  gemm<false><<<grid, block>>>(dA, dB, M, N, KWd, dC, dQ, mult, shift);
  CK(cudaGetLastError());
  CK(cudaMemcpy(C.data(), dC, M * N * 4, cudaMemcpyDeviceToHost));
  {
    int wrong = 0; long long sum = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        unsigned acc = 0;
        for (int k = 0; k < K; ++k) acc += (unsigned)(unsigned char)A[i * K + k] * (unsigned char)B[j * K + k];
        const int want = (int)acc + hb[j & 255];
        wrong += want != C[i * N + j];
        sum += C[i * N + j];
      }
    printf("unsigned: sum %lld, wrong %d\n", sum, wrong);
    bad += wrong;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
