// Conjugate gradients in double on a shifted 2-D Poisson problem (5-point stencil, diagonal 4.05, 64x64,
// matrix-free with boundary branches), the scalars kept on the device: the stencil kernel writes
// A p and adds its block's p . Ap (a shared tree) to a global double by atomicAdd; the update
// kernel reads rr and pAp through pointers, forms alpha, updates x and r and adds r . r of its
// block; the direction kernel forms beta from the two rr values. Three launches an iteration,
// 50 iterations; the host reads the residual every 10. The result is checked by the host's
// own residual b - A x and against the host's own conjugate gradients. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define G 64
#define B 128
#define DIAG 4.05

__device__ double blockSum(double v, double *sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = B / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  return sh[0];
}

// scal: [0] rr (this iteration), [1] pAp, [2] rr (next), per iteration slots of 3
__global__ void stencil(const double *p, double *ap, double *pAp) {
  __shared__ double sh[B];
  int i = blockIdx.x * B + threadIdx.x;
  int x = i % G, y = i / G;
  double v = DIAG * p[i];
  if (x > 0) v -= p[i - 1];
  if (x < G - 1) v -= p[i + 1];
  if (y > 0) v -= p[i - G];
  if (y < G - 1) v -= p[i + G];
  ap[i] = v;
  double s = blockSum(p[i] * v, sh);
  if (threadIdx.x == 0) atomicAdd(pAp, s);
}

__global__ void update(double *x, double *r, const double *p, const double *ap, const double *scal, double *rrNext) {
  __shared__ double sh[B];
  int i = blockIdx.x * B + threadIdx.x;
  double alpha = scal[0] / scal[1];
  x[i] += alpha * p[i];
  double ri = r[i] - alpha * ap[i];
  r[i] = ri;
  double s = blockSum(ri * ri, sh);
  if (threadIdx.x == 0) atomicAdd(rrNext, s);
}

__global__ void direction(double *p, const double *r, const double *scal) {
  int i = blockIdx.x * B + threadIdx.x;
  double beta = scal[2] / scal[0];
  p[i] = r[i] + beta * p[i];
}

int main() {
  const int N = G * G, IT = 50;
  std::vector<double> b(N);
  for (int y = 0; y < G; y++)
    for (int x = 0; x < G; x++)
      b[y * G + x] = sin(0.1 * x) * cos(0.07 * y) + ((x * 7 + y * 13) % 11 == 0 ? 1.0 : 0.0);
  double rr0 = 0;
  for (double v : b) rr0 += v * v;
  std::vector<double> scal(3 * (IT + 1), 0.0);
  scal[0] = rr0;
  double *dx, *dr, *dp, *dap, *ds;
  CK(cudaMalloc(&dx, N * sizeof(double))); CK(cudaMalloc(&dr, N * sizeof(double)));
  CK(cudaMalloc(&dp, N * sizeof(double))); CK(cudaMalloc(&dap, N * sizeof(double)));
  CK(cudaMalloc(&ds, scal.size() * sizeof(double)));
  CK(cudaMemset(dx, 0, N * sizeof(double)));
  CK(cudaMemcpy(dr, b.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dp, b.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ds, scal.data(), scal.size() * sizeof(double), cudaMemcpyHostToDevice));
  for (int it = 0; it < IT; it++) {
    double *s = ds + 3 * it;
    stencil<<<N / B, B>>>(dp, dap, s + 1);
    update<<<N / B, B>>>(dx, dr, dp, dap, s, s + 2);
    direction<<<N / B, B>>>(dp, dr, s);
    // the next iteration's rr is this one's rr (next)
    CK(cudaMemcpy(ds + 3 * (it + 1), s + 2, sizeof(double), cudaMemcpyDeviceToDevice));
    CK(cudaGetLastError());
    if ((it + 1) % 10 == 0) {
      double rr;
      CK(cudaMemcpy(&rr, s + 2, sizeof rr, cudaMemcpyDeviceToHost));
      printf("iteration %d: residual %.3e\n", it + 1, sqrt(rr / rr0));
    }
  }
  std::vector<double> x(N);
  CK(cudaMemcpy(x.data(), dx, N * sizeof(double), cudaMemcpyDeviceToHost));
  // the host's conjugate gradients (same recurrences, its own summation order)
  std::vector<double> hx(N, 0.0), hr(b), hp(b), hap(N);
  double hrr = rr0;
  auto apply = [&](const std::vector<double> &v, std::vector<double> &out) {
    for (int y = 0; y < G; y++)
      for (int xx = 0; xx < G; xx++) {
        int i = y * G + xx;
        double a = DIAG * v[i];
        if (xx > 0) a -= v[i - 1];
        if (xx < G - 1) a -= v[i + 1];
        if (y > 0) a -= v[i - G];
        if (y < G - 1) a -= v[i + G];
        out[i] = a;
      }
  };
  for (int it = 0; it < IT; it++) {
    apply(hp, hap);
    double pap = 0;
    for (int i = 0; i < N; i++) pap += hp[i] * hap[i];
    double alpha = hrr / pap, rrn = 0;
    for (int i = 0; i < N; i++) { hx[i] += alpha * hp[i]; hr[i] -= alpha * hap[i]; rrn += hr[i] * hr[i]; }
    for (int i = 0; i < N; i++) hp[i] = hr[i] + rrn / hrr * hp[i];
    hrr = rrn;
  }
  double diff = 0, big = 0;
  for (int i = 0; i < N; i++) { diff = fmax(diff, fabs(x[i] - hx[i])); big = fmax(big, fabs(hx[i])); }
  double res = 0;
  for (int y = 0; y < G; y++)
    for (int xx = 0; xx < G; xx++) {
      int i = y * G + xx;
      double v = DIAG * x[i];
      if (xx > 0) v -= x[i - 1];
      if (xx < G - 1) v -= x[i + 1];
      if (y > 0) v -= x[i - G];
      if (y < G - 1) v -= x[i + G];
      res += (b[i] - v) * (b[i] - v);
    }
  res = sqrt(res / rr0);
  bool ok = res < 1e-3 && diff <= 1e-9 * big;
  printf("host residual %.2e after %d iterations, %s the host's own iterations\n", res, IT, diff <= 1e-9 * big ? "within 1e-9 of" : "FAR FROM");
  printf("cgsolve: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
