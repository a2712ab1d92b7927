// Batched 1024-point complex FFTs, one block of 1024 threads per transform, one element per
// thread, decimation in frequency: the stages whose partner is 32 or more elements away exchange
// through shared memory, the last five through __shfl_xor_sync; twiddles from sincospif; the
// results stored in natural order through __brev. Then the inverse by conjugation (a second
// launch on the output) and the power spectrum's peak per transform (a warp argmax by shuffles and
// a shared-memory pass). The host checks two transforms against a direct DFT and every round trip.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstring>

#define N 1024
#define LOGN 10

__global__ void fft(const float2* in, float2* out, float sign) {
  __shared__ float2 buf[N];
  int i = threadIdx.x;
  const float2* x = in + (size_t)blockIdx.x * N;
  float2 v = x[i];
  v.y *= sign;  // the inverse: conjugate in and out
  for (int s = N / 2; s >= 1; s >>= 1) {
    float2 p;
    if (s >= 32) {
      buf[i] = v;
      __syncthreads();
      p = buf[i ^ s];
      __syncthreads();
    } else {
      p.x = __shfl_xor_sync(0xffffffffu, v.x, s);
      p.y = __shfl_xor_sync(0xffffffffu, v.y, s);
    }
    if (i & s) {
      float dr = p.x - v.x, di = p.y - v.y, sn, cs;
      sincospif(-(float)(i & (s - 1)) / (float)s, &sn, &cs);
      v.x = dr * cs - di * sn;
      v.y = dr * sn + di * cs;
    } else {
      v.x += p.x; v.y += p.y;
    }
  }
  int j = __brev(i) >> (32 - LOGN);
  v.y *= sign;
  if (sign < 0.f) { v.x *= 1.f / N; v.y *= 1.f / N; }
  out[(size_t)blockIdx.x * N + j] = v;
}

__global__ void peak(const float2* X, int* where, float* power) {
  __shared__ float bp[32];
  __shared__ int bi[32];
  int i = threadIdx.x, lane = i & 31, w = i >> 5;
  float2 v = X[(size_t)blockIdx.x * N + i];
  float p = i == 0 ? 0.f : v.x * v.x + v.y * v.y;  // skip the mean
  int k = i;
  for (int o = 16; o; o >>= 1) {
    float q = __shfl_down_sync(0xffffffffu, p, o);
    int m = __shfl_down_sync(0xffffffffu, k, o);
    if (q > p || (q == p && m < k)) { p = q; k = m; }
  }
  if (lane == 0) { bp[w] = p; bi[w] = k; }
  __syncthreads();
  if (w == 0) {
    p = bp[lane]; k = bi[lane];
    for (int o = 16; o; o >>= 1) {
      float q = __shfl_down_sync(0xffffffffu, p, o);
      int m = __shfl_down_sync(0xffffffffu, k, o);
      if (q > p || (q == p && m < k)) { p = q; k = m; }
    }
    if (lane == 0) { where[blockIdx.x] = k; power[blockIdx.x] = p; }
  }
}

int main() {
  const int B = 24;
  std::vector<float2> x((size_t)B * N);
  unsigned s = 2024u;
  for (int b = 0; b < B; b++)
    for (int i = 0; i < N; i++) {
      s = s * 1664525u + 1013904223u;
      float noise = (float)(s >> 8) / 16777216.f - 0.5f;
      float f1 = 3 + 7 * b, f2 = 100 + 13 * b;
      x[(size_t)b * N + i] = make_float2(cosf(6.2831853f * f1 * i / N) + 0.5f * sinf(6.2831853f * f2 * i / N) + 0.1f * noise,
                                         0.25f * sinf(6.2831853f * f1 * i / N) + 0.05f * noise);
    }
  float2 *dx, *dX, *dy;
  int* dw;
  float* dp;
  size_t bytes = x.size() * sizeof(float2);
  cudaMalloc(&dx, bytes); cudaMalloc(&dX, bytes); cudaMalloc(&dy, bytes);
  cudaMalloc(&dw, B * 4); cudaMalloc(&dp, B * 4);
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  fft<<<B, N>>>(dx, dX, 1.f);
  fft<<<B, N>>>(dX, dy, -1.f);
  peak<<<B, N>>>(dX, dw, dp);
  std::vector<float2> X(x.size()), y(x.size());
  std::vector<int> w(B);
  std::vector<float> pw(B);
  cudaMemcpy(X.data(), dX, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(w.data(), dw, B * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(pw.data(), dp, B * 4, cudaMemcpyDeviceToHost);
  double err = 0, rt = 0, sum = 0;
  unsigned h = 0;
  for (int b = 0; b < 2; b++)
    for (int k = 0; k < N; k++) {
      double re = 0, im = 0;
      for (int i = 0; i < N; i++) {
        double a = -2 * M_PI * (double)((long)k * i % N) / N;
        float2 v = x[(size_t)b * N + i];
        re += v.x * cos(a) - v.y * sin(a); im += v.x * sin(a) + v.y * cos(a);
      }
      float2 g = X[(size_t)b * N + k];
      err = fmax(err, fmax(fabs(re - g.x), fabs(im - g.y)));
    }
  for (size_t i = 0; i < x.size(); i++) {
    rt = fmax(rt, fmax(fabs(y[i].x - x[i].x), fabs(y[i].y - x[i].y)));
    sum += fabs(X[i].x) + fabs(X[i].y);
    unsigned b; memcpy(&b, &X[i].x, 4); h = h * 31u + b; memcpy(&b, &X[i].y, 4); h = h * 31u + b;
  }
  printf("fft %d x %d: |X| %.4f bits %08x dft %s roundtrip %s\n", B, N, sum, h, err < 2e-2 ? "ok" : "BAD", rt < 1e-4 ? "ok" : "BAD");
  printf("peaks:");
  for (int b = 0; b < B; b++) printf(" %d", w[b]);
  printf("\npower[0] %.3f power[%d] %.3f\n", pw[0], B - 1, pw[B - 1]);
  int ok = err < 2e-2 && rt < 1e-4;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
