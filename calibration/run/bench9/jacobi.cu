// Iterative solvers with a float division by data in every update (ptxas's division slow-path
// test on each): Jacobi on a dense diagonally dominant system (a warp per row, the row's sum by
// `__shfl_down_sync`, lane 0 divides by the diagonal), the residual's squares summed per block in
// shared memory and by the host in a fixed order, iterated until the residual is small; red-black
// Gauss-Seidel on a 2-D Poisson-like grid with a coefficient per cell (`(f + sum) / (4 + c)`, the
// colour test `(i + j) & 1` halving each launch's active threads), a fixed number of sweeps.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void jacobiK(const float *A, const float *b, const float *x, float *xn, int n) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
  if (row >= n) return;
  float s = 0.f;
  for (int c = lane; c < n; c += 32)
    if (c != row) s += A[row * n + c] * x[c];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) xn[row] = (b[row] - s) / A[row * n + row];
}

__global__ void residualK(const float *A, const float *b, const float *x, float *part, int n) {
  __shared__ float sh[128];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float r = 0.f;
  if (row < n) {
    float s = 0.f;
    for (int c = 0; c < n; ++c) s += A[row * n + c] * x[c];
    r = (b[row] - s) * (b[row] - s);
  }
  sh[threadIdx.x] = r;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) sh[threadIdx.x] += sh[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}

__global__ void redBlackK(float *u, const float *f, const float *c, int nx, int ny, int colour) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1) return;
  if (((i + j) & 1) != colour) return;
  int k = j * nx + i;
  float s = u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx];
  u[k] = (f[k] + s) / (4.f + c[k]);
}

int main() {
  int bad = 0;
  {
    const int n = 200;
    std::vector<float> A(n * n), b(n), x(n, 0.f);
    unsigned s = 5;
    for (int i = 0; i < n; ++i) {
      float rs = 0.f;
      for (int j = 0; j < n; ++j) {
        s = s * 1664525u + 1013904223u;
        float v = (float)((s >> 9) % 1000) / 1000.f - 0.5f;
        A[i * n + j] = v; rs += fabsf(v);
      }
      A[i * n + i] = rs + 1.f + (float)(i % 9);
      b[i] = (float)(i % 17) - 8.f;
    }
    float *dA, *db, *dx, *dxn, *dp;
    int nbR = (n + 127) / 128;
    CK(cudaMalloc(&dA, n * n * 4)); CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&dx, n * 4));
    CK(cudaMalloc(&dxn, n * 4)); CK(cudaMalloc(&dp, nbR * 4));
    CK(cudaMemcpy(dA, A.data(), n * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
    int it = 0; double res = 1e30;
    std::vector<float> part(nbR);
    while (it < 40 && res > 1e-6) {
      jacobiK<<<(n + 7) / 8, 256>>>(dA, db, dx, dxn, n);
      float *t = dx; dx = dxn; dxn = t;
      ++it;
      if (it % 4 == 0) {
        residualK<<<nbR, 128>>>(dA, db, dx, dp, n);
        CK(cudaMemcpy(part.data(), dp, nbR * 4, cudaMemcpyDeviceToHost));
        res = 0; for (int i = 0; i < nbR; ++i) res += part[i];
        res = sqrt(res);
      }
    }
    CK(cudaMemcpy(x.data(), dx, n * 4, cudaMemcpyDeviceToHost));
    double err = 0, cs = 0;
    for (int i = 0; i < n; ++i) {
      double s2 = 0; for (int j = 0; j < n; ++j) s2 += (double)A[i * n + j] * x[j];
      err = fmax(err, fabs(s2 - b[i])); cs += x[i];
    }
    bad += err > 1e-3;
    printf("jacobi n=%d iterations %d residual %.6e checksum %.7f maxerr %.3e\n", n, it, res, cs, err);
  }
  {
    const int nx = 70, ny = 45, sweeps = 12;
    std::vector<float> u(nx * ny, 0.f), f(nx * ny), c(nx * ny);
    for (int k = 0; k < nx * ny; ++k) { f[k] = (float)((k * 37) % 23) * 0.125f; c[k] = (float)(k % 5) * 0.5f; }
    for (int i = 0; i < nx; ++i) { u[i] = 1.f; u[(ny - 1) * nx + i] = 2.f; }
    std::vector<float> h = u;
    float *du, *df, *dc;
    CK(cudaMalloc(&du, nx * ny * 4)); CK(cudaMalloc(&df, nx * ny * 4)); CK(cudaMalloc(&dc, nx * ny * 4));
    CK(cudaMemcpy(du, u.data(), nx * ny * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(df, f.data(), nx * ny * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c.data(), nx * ny * 4, cudaMemcpyHostToDevice));
    dim3 bl(16, 8), gr((nx + 15) / 16, (ny + 7) / 8);
    for (int sw = 0; sw < sweeps; ++sw)
      for (int col = 0; col < 2; ++col) redBlackK<<<gr, bl>>>(du, df, dc, nx, ny, col);
    CK(cudaMemcpy(u.data(), du, nx * ny * 4, cudaMemcpyDeviceToHost));
    for (int sw = 0; sw < sweeps; ++sw)
      for (int col = 0; col < 2; ++col)
        for (int j = 1; j < ny - 1; ++j)
          for (int i = 1; i < nx - 1; ++i) {
            if (((i + j) & 1) != col) continue;
            int k = j * nx + i;
            float s2 = h[k - 1] + h[k + 1] + h[k - nx] + h[k + nx];
            h[k] = (f[k] + s2) / (4.f + c[k]);
          }
    double cs = 0; int diff = 0;
    for (int k = 0; k < nx * ny; ++k) { cs += u[k]; diff += fabsf(u[k] - h[k]) > 1e-5f; }
    bad += diff;
    printf("red-black %dx%d checksum %.6f\n", nx, ny, cs);
  }
  printf("jacobi %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
