// Blocked right-looking Cholesky in double, 32 x 32 tiles, three launches a tile step: the diagonal
// tile factored by one block of 1,024 threads in shared memory (a sqrt, a column of divisions and
// a lower-triangle update a column, three barriers a column), the tiles below solved against it
// (a block a tile, column by column), and the trailing lower triangle updated (a 2-D grid over
// every tile pair, the blocks above the diagonal leaving at once; one tile padded, one not).
// Checked against the host's unblocked factorisation; the log-determinant printed.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>

#define T 32

__global__ void potrf(double *A, int n, int k) {
  __shared__ double a[T][T + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r0 = k * T;
  a[ty][tx] = A[(size_t)(r0 + ty) * n + r0 + tx];
  __syncthreads();
  for (int j = 0; j < T; j++) {
    if (tx == j && ty == j) a[j][j] = sqrt(a[j][j]);
    __syncthreads();
    if (tx == j && ty > j) a[ty][j] /= a[j][j];
    __syncthreads();
    if (ty > j && tx > j && tx <= ty) a[ty][tx] -= a[ty][j] * a[tx][j];
    __syncthreads();
  }
  if (tx <= ty) A[(size_t)(r0 + ty) * n + r0 + tx] = a[ty][tx];
}

__global__ void trsm(double *A, int n, int k) {
  __shared__ double l[T][T + 1];
  __shared__ double x[T][T + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = k + 1 + blockIdx.x;
  l[ty][tx] = A[(size_t)(k * T + ty) * n + k * T + tx];
  x[ty][tx] = A[(size_t)(i * T + ty) * n + k * T + tx];
  __syncthreads();
  for (int j = 0; j < T; j++) {
    if (tx == j) x[ty][j] /= l[j][j];
    __syncthreads();
    if (tx > j) x[ty][tx] -= x[ty][j] * l[tx][j];
    __syncthreads();
  }
  A[(size_t)(i * T + ty) * n + k * T + tx] = x[ty][tx];
}

__global__ void update(double *A, int n, int k) {
  __shared__ double li[T][T];
  __shared__ double lj[T][T + 1];
  int i = k + 1 + blockIdx.y, j = k + 1 + blockIdx.x;
  if (j > i) return;
  int tx = threadIdx.x, ty = threadIdx.y;
  li[ty][tx] = A[(size_t)(i * T + ty) * n + k * T + tx];
  lj[ty][tx] = A[(size_t)(j * T + ty) * n + k * T + tx];
  __syncthreads();
  double s = 0;
#pragma unroll 8
  for (int p = 0; p < T; p++) s += li[ty][p] * lj[tx][p];
  A[(size_t)(i * T + ty) * n + j * T + tx] -= s;
}

static uint32_t rng(uint32_t &s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  if (n % T) { printf("n must be a multiple of %d\n", T); return 2; }
  int nt = n / T;
  std::vector<double> A((size_t)n * n);
  uint32_t s = 77;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double v = pow(0.7, i - j) + 0.2 * ((rng(s) >> 8) / 16777216.0 - 0.5) / sqrt((double)n) + (i == j ? 4.0 : 0.0);
      A[(size_t)i * n + j] = A[(size_t)j * n + i] = v;
    }
  double *dA;
  cudaMalloc(&dA, A.size() * 8);
  cudaMemcpy(dA, A.data(), A.size() * 8, cudaMemcpyHostToDevice);
  dim3 b(T, T);
  for (int k = 0; k < nt; k++) {
    potrf<<<1, b>>>(dA, n, k);
    if (k + 1 < nt) {
      trsm<<<nt - k - 1, b>>>(dA, n, k);
      update<<<dim3(nt - k - 1, nt - k - 1), b>>>(dA, n, k);
    }
  }
  std::vector<double> G(A.size());
  cudaMemcpy(G.data(), dA, G.size() * 8, cudaMemcpyDeviceToHost);
  // host: unblocked, column by column
  std::vector<double> H = A;
  for (int j = 0; j < n; j++) {
    double d = H[(size_t)j * n + j];
    for (int p = 0; p < j; p++) d -= H[(size_t)j * n + p] * H[(size_t)j * n + p];
    d = sqrt(d);
    H[(size_t)j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double v = H[(size_t)i * n + j];
      for (int p = 0; p < j; p++) v -= H[(size_t)i * n + p] * H[(size_t)j * n + p];
      H[(size_t)i * n + j] = v / d;
    }
  }
  double maxErr = 0, ld = 0, hld = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) maxErr = fmax(maxErr, fabs(G[(size_t)i * n + j] - H[(size_t)i * n + j]));
    ld += 2 * log(G[(size_t)i * n + i]);
    hld += 2 * log(H[(size_t)i * n + i]);
  }
  // the upper triangle outside the diagonal tiles is untouched
  long moved = 0;
  for (int i = 0; i < n; i++)
    for (int j = (i / T + 1) * T; j < n; j++) moved += G[(size_t)i * n + j] != A[(size_t)i * n + j];
  printf("n %d, %d tile steps: log det %.10f (host %.10f), largest difference %.3e, upper entries moved %ld\n", n, nt, ld, hld, maxErr, moved);
  printf("L[%d][%d] = %.15f\n", n - 1, n / 2, G[(size_t)(n - 1) * n + n / 2]);
  bool ok = maxErr < 1e-10 && moved == 0;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("cholesky: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
