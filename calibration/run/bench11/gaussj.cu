// Gaussian elimination with partial pivoting by row swaps in double precision, two launches a step:
// `pivotSwap` (one block: each thread scans rows for the largest |a|, a warp argmax by 64-bit
// `__shfl_down_sync` of the value and the row, ties to the lower row, then across warps in shared
// memory; the pivot row and the current row swapped in A and in both right-hand sides; the
// determinant's running product and sign in global memory) and `eliminate` (a 2-D grid, the
// multiplier a division per thread, the pivot column's multipliers kept apart); then back
// substitution a block a right-hand side (a barrier and a shuffle reduction a row). A matrix whose
// leading entries are small so that every step swaps. The host solves it too and checks A x = b.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int N = 32, NR = 2;

__global__ void pivotSwap(double *A, double *B, int *perm, double *det, int k) {
  __shared__ double wv[8];
  __shared__ int wi[8];
  __shared__ int piv;
  int t = threadIdx.x, lane = t & 31, w = t >> 5;
  double best = -1.0;
  int bi = N;
  for (int r = k + t; r < N; r += blockDim.x) {
    double v = fabs(A[r * N + k]);
    if (v > best) { best = v; bi = r; }
  }
  for (int o = 16; o > 0; o >>= 1) {
    double ov = __shfl_down_sync(0xffffffffu, best, o);
    int oi = __shfl_down_sync(0xffffffffu, bi, o);
    if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
  }
  if (lane == 0) { wv[w] = best; wi[w] = bi; }
  __syncthreads();
  if (t == 0) {
    for (int i = 1; i < (int)(blockDim.x >> 5); ++i)
      if (wv[i] > wv[0] || (wv[i] == wv[0] && wi[i] < wi[0])) { wv[0] = wv[i]; wi[0] = wi[i]; }
    piv = wi[0];
    perm[k] = piv;
    double p = A[piv * N + k];
    det[0] *= piv != k ? -p : p;
  }
  __syncthreads();
  int p = piv;
  if (p != k) {
    for (int c = t; c < N; c += blockDim.x) {
      double x = A[k * N + c]; A[k * N + c] = A[p * N + c]; A[p * N + c] = x;
    }
    if (t < NR) { double x = B[k * NR + t]; B[k * NR + t] = B[p * NR + t]; B[p * NR + t] = x; }
  }
}

__global__ void eliminate(double *A, double *B, double *Lm, int k) {
  int r = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  int c = k + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  double f = A[r * N + k] / A[k * N + k];
  if (c == k) {
    Lm[r * N + k] = f;
    for (int j = 0; j < NR; ++j) B[r * NR + j] -= f * B[k * NR + j];
  } else if (c < N) {
    A[r * N + c] -= f * A[k * N + c];
  }
}

__global__ void backSub(const double *A, const double *B, double *X) {
  __shared__ double x[N];
  __shared__ double part[2];
  int j = blockIdx.x, t = threadIdx.x;  // 64 threads
  for (int i = N - 1; i >= 0; --i) {
    double s = (t > i && t < N) ? A[i * N + t] * x[t] : 0.0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((t & 31) == 0) part[t >> 5] = s;
    __syncthreads();
    if (t == 0) x[i] = (B[i * NR + j] - (part[0] + part[1])) / A[i * N + i];
    __syncthreads();
  }
  if (t < N) X[t * NR + j] = x[t];
}

int main() {
  std::vector<double> A(N * N), B(N * NR), xs(N * NR);
  unsigned s = 2024u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (double)((s >> 8) & 0xffff) / 65536.0 - 0.5; };
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) A[r * N + c] = rnd() * (c <= r ? 0.05 : 1.0) + (r == (c + 7) % N ? 2.0 : 0.0);
  for (int i = 0; i < N * NR; ++i) xs[i] = rnd() * 4.0;
  for (int r = 0; r < N; ++r)
    for (int j = 0; j < NR; ++j) {
      double b = 0;
      for (int c = 0; c < N; ++c) b += A[r * N + c] * xs[c * NR + j];
      B[r * NR + j] = b;
    }
  double *dA, *dB, *dL, *dX, *ddet; int *dperm;
  CK(cudaMalloc(&dA, N * N * 8)); CK(cudaMalloc(&dB, N * NR * 8)); CK(cudaMalloc(&dL, N * N * 8));
  CK(cudaMalloc(&dX, N * NR * 8)); CK(cudaMalloc(&ddet, 8)); CK(cudaMalloc(&dperm, N * 4));
  CK(cudaMemcpy(dA, A.data(), N * N * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), N * NR * 8, cudaMemcpyHostToDevice));
  CK(cudaMemset(dL, 0, N * N * 8));
  double one = 1.0;
  CK(cudaMemcpy(ddet, &one, 8, cudaMemcpyHostToDevice));
  for (int k = 0; k < N; ++k) {
    pivotSwap<<<1, 64>>>(dA, dB, dperm, ddet, k);
    if (k + 1 < N) eliminate<<<dim3((N - k + 15) / 16, (N - k - 1 + 15) / 16), dim3(16, 16)>>>(dA, dB, dL, k);
  }
  backSub<<<NR, 64>>>(dA, dB, dX);
  CK(cudaGetLastError());
  std::vector<double> X(N * NR);
  std::vector<int> perm(N);
  double det;
  CK(cudaMemcpy(X.data(), dX, N * NR * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(perm.data(), dperm, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&det, ddet, 8, cudaMemcpyDeviceToHost));
  // host: the same elimination
  std::vector<double> a = A, b = B;
  double hdet = 1.0;
  int swaps = 0, permBad = 0;
  for (int k = 0; k < N; ++k) {
    int p = k;
    for (int r = k + 1; r < N; ++r)
      if (fabs(a[r * N + k]) > fabs(a[p * N + k])) p = r;
    permBad += perm[k] != p;
    hdet *= p != k ? -a[p * N + k] : a[p * N + k];
    if (p != k) {
      ++swaps;
      for (int c = 0; c < N; ++c) std::swap(a[k * N + c], a[p * N + c]);
      for (int j = 0; j < NR; ++j) std::swap(b[k * NR + j], b[p * NR + j]);
    }
    for (int r = k + 1; r < N; ++r) {
      double f = a[r * N + k] / a[k * N + k];
      for (int c = k + 1; c < N; ++c) a[r * N + c] -= f * a[k * N + c];
      for (int j = 0; j < NR; ++j) b[r * NR + j] -= f * b[k * NR + j];
    }
  }
  double err = 0, xsum = 0;
  for (int i = 0; i < N * NR; ++i) { err = fmax(err, fabs(X[i] - xs[i])); xsum += X[i] * (1 + i % 7); }
  double detRel = fabs(det - hdet) / fabs(hdet);
  printf("swaps %d, pivots differing %d, det %.10e (host %.10e), max |x - x*| %.3e, x checksum %.9f\n", swaps,
         permBad, det, hdet, err, xsum);
  bool ok = permBad == 0 && swaps > N / 2 && detRel < 1e-9 && err < 1e-9;
  printf("gaussj: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
