// Particle filter in double precision (Rodinia particlefilter-like shape): per frame, particles
// move by a Box-Muller normal step (a per-particle linear congruential generator, double `log`,
// `sqrt`, `cos`, `sin`), weigh themselves by a likelihood summed over a disc of 13 pixel offsets
// (double `exp`), a one-block reduction sums the weights, one thread builds the CDF, and each
// particle resamples by a linear search of the CDF (a data-dependent loop). The object moves
// diagonally through a synthetic image; the estimate must follow it.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define NP 512
#define W 96
#define H 96
#define NOFF 13

__constant__ int cOff[NOFF * 2];

__device__ double uniformd(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (double)(*seed >> 8) / 16777216.0;
}

__global__ void moveK(double *x, double *y, unsigned *seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned s = seed[i];
  double u1 = uniformd(&s), u2 = uniformd(&s);
  if (u1 < 1e-12) u1 = 1e-12;
  double rad = sqrt(-2.0 * log(u1));
  double nx = rad * cos(2.0 * M_PI * u2), ny = rad * sin(2.0 * M_PI * u2);
  x[i] += 1.0 + 2.0 * nx;
  y[i] += 1.0 + 2.0 * ny;
  seed[i] = s;
}

__global__ void weighK(const double *x, const double *y, const unsigned char *img, double *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double lik = 0.0;
  for (int k = 0; k < NOFF; ++k) {
    int px = (int)round(x[i]) + cOff[2 * k], py = (int)round(y[i]) + cOff[2 * k + 1];
    if (px < 0) px = 0;
    if (px >= W) px = W - 1;
    if (py < 0) py = 0;
    if (py >= H) py = H - 1;
    double v = img[py * W + px];
    lik += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
  }
  w[i] = w[i] * exp(lik / NOFF);
}

__global__ void sumK(double *w, int n, double *total) {
  __shared__ double s[256];
  double acc = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += w[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  double t = s[0];
  for (int i = threadIdx.x; i < n; i += blockDim.x) w[i] /= t;
  if (threadIdx.x == 0) *total = t;
}

__global__ void cdfK(const double *w, double *cdf, const double *x, const double *y, double *est, int n) {
  double c = 0.0, ex = 0.0, ey = 0.0;
  for (int i = 0; i < n; ++i) {
    c += w[i];
    cdf[i] = c;
    ex += w[i] * x[i];
    ey += w[i] * y[i];
  }
  est[0] = ex;
  est[1] = ey;
}

__global__ void resampleK(const double *cdf, const double *x, const double *y, double *nx, double *ny,
                          double *w, double u0, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  double u = u0 + (double)j / n;
  int k = 0;
  while (k < n - 1 && cdf[k] < u) ++k;
  nx[j] = x[k];
  ny[j] = y[k];
  w[j] = 1.0 / n;
}

int main() {
  int off[NOFF * 2], m = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      if (dx * dx + dy * dy <= 4) { off[2 * m] = dx; off[2 * m + 1] = dy; ++m; }
  cudaMemcpyToSymbol(cOff, off, sizeof(off));
  const int FR = 6;
  unsigned char *img = (unsigned char *)malloc(W * H * FR);
  unsigned r = 5;
  for (int f = 0; f < FR; ++f)
    for (int yy = 0; yy < H; ++yy)
      for (int xx = 0; xx < W; ++xx) {
        int cx = 30 + f, cy = 30 + f;
        r = r * 1664525u + 1013904223u;
        int d2 = (xx - cx) * (xx - cx) + (yy - cy) * (yy - cy);
        int v = d2 <= 25 ? 228 : 100;
        img[f * W * H + yy * W + xx] = (unsigned char)(v + (int)((r >> 24) % 9) - 4);
      }
  double hx[NP], hy[NP], hw[NP];
  unsigned hs[NP];
  for (int i = 0; i < NP; ++i) { hx[i] = 30; hy[i] = 30; hw[i] = 1.0 / NP; hs[i] = 1000u + 7919u * i; }
  double *x, *y, *x2, *y2, *w, *cdf, *tot, *est;
  unsigned *seed;
  unsigned char *dimg;
  cudaMalloc(&x, NP * 8); cudaMalloc(&y, NP * 8); cudaMalloc(&x2, NP * 8); cudaMalloc(&y2, NP * 8);
  cudaMalloc(&w, NP * 8); cudaMalloc(&cdf, NP * 8); cudaMalloc(&tot, 8); cudaMalloc(&est, 16);
  cudaMalloc(&seed, NP * 4); cudaMalloc(&dimg, W * H * FR);
  cudaMemcpy(x, hx, NP * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, NP * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(w, hw, NP * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(seed, hs, NP * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dimg, img, W * H * FR, cudaMemcpyHostToDevice);
  int ok = 1;
  double cs = 0;
  for (int f = 1; f < FR; ++f) {
    moveK<<<NP / 128, 128>>>(x, y, seed, NP);
    weighK<<<NP / 128, 128>>>(x, y, dimg + f * W * H, w, NP);
    sumK<<<1, 256>>>(w, NP, tot);
    cdfK<<<1, 1>>>(w, cdf, x, y, est, NP);
    double e[2], t;
    cudaMemcpy(e, est, 16, cudaMemcpyDeviceToHost);
    cudaMemcpy(&t, tot, 8, cudaMemcpyDeviceToHost);
    double u0 = ((f * 2654435761u) >> 8) % 1000 / 1000.0 / NP;
    resampleK<<<NP / 128, 128>>>(cdf, x, y, x2, y2, w, u0, NP);
    double *s;
    s = x; x = x2; x2 = s;
    s = y; y = y2; y2 = s;
    printf("frame %d: estimate (%.6f, %.6f), object (%d, %d), weight sum %.6e\n", f, e[0], e[1], 30 + f, 30 + f, t);
    if (fabs(e[0] - (30 + f)) > 3.0 || fabs(e[1] - (30 + f)) > 3.0) ok = 0;
    cs += e[0] * f + e[1];
  }
  printf("pfilter checksum %.9f %s\n", cs, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
