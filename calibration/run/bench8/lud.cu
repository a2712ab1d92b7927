// LU decomposition without pivoting in 16x16 shared tiles (Rodinia lud-like shape): per step a
// one-block kernel factors the diagonal tile (a triangular loop with a division per row), a
// perimeter kernel updates the row and column tiles to its right and below (two kinds of
// triangular solve, half the threads each), and an internal kernel a 2-D grid of 16x16 blocks
// subtracts the tile products. The matrix is diagonally dominant; L*U is checked against A.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define T 16

__global__ void diagK(float *m, int n, int off) {
  __shared__ float s[T][T];
  int tx = threadIdx.x;
  for (int i = 0; i < T; ++i) s[i][tx] = m[(off + i) * n + off + tx];
  __syncthreads();
  for (int i = 0; i < T - 1; ++i) {
    if (tx > i) {
      for (int j = 0; j < i; ++j) s[tx][i] -= s[tx][j] * s[j][i];
      s[tx][i] /= s[i][i];
    }
    __syncthreads();
    if (tx > i) {
      for (int j = 0; j < i + 1; ++j) s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
    }
    __syncthreads();
  }
  for (int i = 1; i < T; ++i) m[(off + i) * n + off + tx] = s[i][tx];
}

__global__ void perimK(float *m, int n, int off) {
  __shared__ float dia[T][T];
  __shared__ float row[T][T];
  __shared__ float col[T][T];
  int tx = threadIdx.x;  // 2*T threads
  int b = blockIdx.x;
  int ri = off, rj = off + (b + 1) * T;  // row tile (to the right)
  int ci = off + (b + 1) * T, cj = off;  // column tile (below)
  if (tx < T) {
    for (int i = 0; i < T / 2; ++i) dia[i][tx] = m[(off + i) * n + off + tx];
    for (int i = 0; i < T; ++i) row[i][tx] = m[(ri + i) * n + rj + tx];
  } else {
    int t = tx - T;
    for (int i = T / 2; i < T; ++i) dia[i][t] = m[(off + i) * n + off + t];
    for (int i = 0; i < T; ++i) col[i][t] = m[(ci + i) * n + cj + t];
  }
  __syncthreads();
  if (tx < T) {
    // row tile: forward substitution with L (unit diagonal), column tx
    for (int i = 1; i < T; ++i)
      for (int j = 0; j < i; ++j) row[i][tx] -= dia[i][j] * row[j][tx];
  } else {
    // column tile: solve X U = C, row t
    int t = tx - T;
    for (int i = 0; i < T; ++i) {
      for (int j = 0; j < i; ++j) col[t][i] -= col[t][j] * dia[j][i];
      col[t][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (tx < T) {
    for (int i = 1; i < T; ++i) m[(ri + i) * n + rj + tx] = row[i][tx];
  } else {
    int t = tx - T;
    for (int i = 0; i < T; ++i) m[(ci + i) * n + cj + t] = col[i][t];
  }
}

__global__ void innerK(float *m, int n, int off) {
  __shared__ float r[T][T];
  __shared__ float c[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gi = off + (blockIdx.y + 1) * T, gj = off + (blockIdx.x + 1) * T;
  r[ty][tx] = m[(off + ty) * n + gj + tx];
  c[ty][tx] = m[(gi + ty) * n + off + tx];
  __syncthreads();
  float sum = 0.f;
#pragma unroll 4
  for (int k = 0; k < T; ++k) sum += c[ty][k] * r[k][tx];
  m[(gi + ty) * n + gj + tx] -= sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 128;
  float *a = (float *)malloc(sizeof(float) * n * n), *lu = (float *)malloc(sizeof(float) * n * n);
  unsigned r = 99;
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int j = 0; j < n; ++j) {
      r = r * 1664525u + 1013904223u;
      float v = ((r >> 9) % 2001) / 1000.0f - 1.0f;
      a[i * n + j] = v;
      s += fabsf(v);
    }
    a[i * n + i] = s + 1.0f;
  }
  float *d;
  cudaMalloc(&d, sizeof(float) * n * n);
  cudaMemcpy(d, a, sizeof(float) * n * n, cudaMemcpyHostToDevice);
  int nt = n / T;
  for (int s = 0; s < nt; ++s) {
    int off = s * T;
    diagK<<<1, T>>>(d, n, off);
    int rest = nt - s - 1;
    if (rest > 0) {
      perimK<<<rest, 2 * T>>>(d, n, off);
      innerK<<<dim3(rest, rest), dim3(T, T)>>>(d, n, off);
    }
  }
  cudaMemcpy(lu, d, sizeof(float) * n * n, cudaMemcpyDeviceToHost);
  double maxerr = 0, cs = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      int kmax = i < j ? i : j;
      for (int k = 0; k <= kmax; ++k) {
        double l = (k == i) ? 1.0 : lu[i * n + k];
        s += l * lu[k * n + j];
      }
      double e = fabs(s - a[i * n + j]);
      if (e > maxerr) maxerr = e;
      cs += lu[i * n + j] * ((i * 7 + j) % 13);
    }
  printf("lud n=%d: max |LU - A| %.3e, checksum %.6f\n", n, maxerr, cs);
  bool ok = maxerr < 1e-3;
  printf("lud %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
