// Warp-level row operations by unrolled shuffle templates: a row softmax a warp per row (maximum
// and sum by `__shfl_xor_sync`, `expf`, a float division a element), a layer normalisation
// (mean, variance, `rsqrtf`, a learned scale and shift), a log-sum-exp in double (64-bit shuffles
// by `__shfl_down_sync`), and a segmented sum over sub-warps of 8 and 16 lanes from one template
// on the width; rows of lengths that are not multiples of 32.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

template <int WIDTH, typename T, typename Op>
__device__ __forceinline__ T warpAll(T v, Op op) {
#pragma unroll
  for (int o = WIDTH / 2; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o, WIDTH));
  return v;
}

struct MaxOp { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
struct AddOp { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };

__global__ void softmaxK(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *xr = x + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
  m = warpAll<32>(m, MaxOp());
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += expf(xr[c] - m);
  s = warpAll<32>(s, AddOp());
  for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = expf(xr[c] - m) / s;
}

__global__ void layerNormK(const float *x, float *y, const float *gamma, const float *beta, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *xr = x + (size_t)row * cols;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += xr[c];
  float mean = warpAll<32>(s, AddOp()) / cols;
  float v = 0.f;
  for (int c = lane; c < cols; c += 32) { float d = xr[c] - mean; v += d * d; }
  float inv = rsqrtf(warpAll<32>(v, AddOp()) / cols + 1e-5f);
  for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = (xr[c] - mean) * inv * gamma[c] + beta[c];
}

__global__ void lseK(const float *x, double *out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  double m = -1e300;
  for (int c = lane; c < cols; c += 32) m = fmax(m, (double)x[(size_t)row * cols + c]);
  for (int o = 16; o > 0; o >>= 1) m = fmax(m, __shfl_down_sync(0xffffffffu, m, o));
  m = __shfl_sync(0xffffffffu, m, 0);
  double s = 0.0;
  for (int c = lane; c < cols; c += 32) s += exp((double)x[(size_t)row * cols + c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) out[row] = m + log(s);
}

template <int WIDTH>
__global__ void segSumK(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  v = warpAll<WIDTH>(v, AddOp());
  if ((threadIdx.x & (WIDTH - 1)) == 0 && i < n) out[i / WIDTH] = v;
}

int main() {
  const int R = 70, C = 75;
  float *x = (float *)malloc(R * C * 4), *y = (float *)malloc(R * C * 4), *z = (float *)malloc(R * C * 4);
  float g[C], bt[C];
  unsigned r = 23;
  for (int i = 0; i < R * C; ++i) { r = r * 1664525u + 1013904223u; x[i] = ((int)(r >> 20) % 4000 - 2000) / 250.0f; }
  for (int c = 0; c < C; ++c) { g[c] = 0.5f + c / 100.0f; bt[c] = c * 0.01f - 0.3f; }
  float *dx, *dy, *dz, *dg, *db;
  double *dl;
  cudaMalloc(&dx, R * C * 4); cudaMalloc(&dy, R * C * 4); cudaMalloc(&dz, R * C * 4);
  cudaMalloc(&dg, C * 4); cudaMalloc(&db, C * 4); cudaMalloc(&dl, R * 8);
  cudaMemcpy(dx, x, R * C * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g, C * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, bt, C * 4, cudaMemcpyHostToDevice);
  softmaxK<<<(R + 3) / 4, 128>>>(dx, dy, R, C);
  layerNormK<<<(R + 7) / 8, 256>>>(dx, dz, dg, db, R, C);
  lseK<<<(R + 3) / 4, 128>>>(dx, dl, R, C);
  const int NS = 1000;
  int *sx = (int *)malloc(NS * 4), s8[NS / 8 + 1], s16[NS / 16 + 1];
  for (int i = 0; i < NS; ++i) sx[i] = (i * 31) % 101 - 50;
  int *dsx, *d8, *d16;
  cudaMalloc(&dsx, NS * 4); cudaMalloc(&d8, sizeof(s8)); cudaMalloc(&d16, sizeof(s16));
  cudaMemcpy(dsx, sx, NS * 4, cudaMemcpyHostToDevice);
  segSumK<8><<<(NS + 127) / 128, 128>>>(dsx, d8, NS);
  segSumK<16><<<(NS + 127) / 128, 128>>>(dsx, d16, NS);
  double lse[R];
  cudaMemcpy(y, dy, R * C * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(z, dz, R * C * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(lse, dl, R * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(s8, d8, sizeof(s8), cudaMemcpyDeviceToHost);
  cudaMemcpy(s16, d16, sizeof(s16), cudaMemcpyDeviceToHost);
  int bad = 0;
  double cs = 0, cz = 0, cl = 0;
  for (int i = 0; i < R; ++i) {
    double m = -1e300, s = 0, mean = 0, v = 0;
    for (int c = 0; c < C; ++c) m = fmax(m, x[i * C + c]);
    for (int c = 0; c < C; ++c) s += exp(x[i * C + c] - m);
    for (int c = 0; c < C; ++c) mean += x[i * C + c];
    mean /= C;
    for (int c = 0; c < C; ++c) v += (x[i * C + c] - mean) * (x[i * C + c] - mean);
    double inv = 1.0 / sqrt(v / C + 1e-5);
    for (int c = 0; c < C; ++c) {
      double sm = exp(x[i * C + c] - m) / s, ln = (x[i * C + c] - mean) * inv * g[c] + bt[c];
      if (fabs(sm - y[i * C + c]) > 1e-5 || fabs(ln - z[i * C + c]) > 1e-4) ++bad;
      cs += y[i * C + c] * (c + 1);
      cz += z[i * C + c];
    }
    if (fabs(m + log(s) - lse[i]) > 1e-12) ++bad;
    cl += lse[i];
  }
  for (int w = 8; w <= 16; w *= 2)
    for (int k = 0; k < NS / w; ++k) {
      int t = 0;
      for (int j = 0; j < w; ++j) t += sx[k * w + j];
      if (t != (w == 8 ? s8[k] : s16[k])) ++bad;
    }
  printf("softmax checksum %.7f, layernorm %.6f, logsumexp %.15f\n", cs, cz, cl);
  printf("softmax %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
