// PolyBench-GPU shapes: atax (a row sweep then a column sweep), bicg (both products of one
// matrix), Gram-Schmidt QR (per column: a one-block norm reduction with sqrtf, a scaling by a
// division, then a kernel over the later columns, three launches a column), fdtd-2d (three
// kernels a time step, the boundary row set from the step's source) and correlation in double
// (means, standard deviations with sqrt and a floor on tiny ones, centring, then the upper
// triangle of the correlation matrix: a triangular loop). The host checks every result.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstring>

__global__ void ataxRow(const float* A, const float* x, float* tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) { float s = 0; for (int j = 0; j < ny; j++) s += A[i * ny + j] * x[j]; tmp[i] = s; }
}
__global__ void ataxCol(const float* A, const float* tmp, float* y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) { float s = 0; for (int i = 0; i < nx; i++) s += A[i * ny + j] * tmp[i]; y[j] = s; }
}
__global__ void bicg(const float* A, const float* p, const float* r, float* q, float* s, int nx, int ny) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nx) { float a = 0; for (int j = 0; j < ny; j++) a += A[t * ny + j] * p[j]; q[t] = a; }
  else if (t - nx < ny) { int j = t - nx; float a = 0; for (int i = 0; i < nx; i++) a += r[i] * A[i * ny + j]; s[j] = a; }
}

__global__ void gsNorm(const float* A, float* R, int m, int n, int k) {
  __shared__ float part[256];
  float s = 0;
  for (int i = threadIdx.x; i < m; i += blockDim.x) { float v = A[i * n + k]; s += v * v; }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) R[k * n + k] = sqrtf(part[0]);
}
__global__ void gsScale(const float* A, const float* R, float* Qm, int m, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) Qm[i * n + k] = A[i * n + k] / R[k * n + k];
}
__global__ void gsUpdate(float* A, float* R, const float* Qm, int m, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + k + 1;
  if (j < n) {
    float s = 0;
    for (int i = 0; i < m; i++) s += Qm[i * n + k] * A[i * n + j];
    R[k * n + j] = s;
    for (int i = 0; i < m; i++) A[i * n + j] -= Qm[i * n + k] * s;
  }
}

__global__ void fdtdEy(float* ey, const float* hz, const float* fict, int nx, int ny, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0) ey[j] = fict[t];
    else ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}
__global__ void fdtdEx(float* ex, const float* hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny && j > 0) ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}
__global__ void fdtdHz(float* hz, const float* ex, const float* ey, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

__global__ void corrMean(const double* d, double* mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) { double s = 0; for (int i = 0; i < n; i++) s += d[i * m + j]; mean[j] = s / n; }
}
__global__ void corrStd(const double* d, const double* mean, double* sd, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    double s = 0;
    for (int i = 0; i < n; i++) { double v = d[i * m + j] - mean[j]; s += v * v; }
    s = sqrt(s / n);
    sd[j] = s <= 0.1 ? 1.0 : s;
  }
}
__global__ void corrCentre(double* d, const double* mean, const double* sd, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) d[i * m + j] = (d[i * m + j] - mean[j]) / (sqrt((double)n) * sd[j]);
}
__global__ void corrMat(const double* d, double* c, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    c[j1 * m + j1] = 1.0;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      double s = 0;
      for (int i = 0; i < n; i++) s += d[i * m + j1] * d[i * m + j2];
      c[j1 * m + j2] = s; c[j2 * m + j1] = s;
    }
  }
  if (j1 == m - 1) c[j1 * m + j1] = 1.0;
}

static unsigned lcg = 5u;
static float rnd() { lcg = lcg * 1664525u + 1013904223u; return (float)((lcg >> 9) % 1000) / 1000.f; }
template <class T> static T* up(const std::vector<T>& v) { T* p; cudaMalloc(&p, v.size() * sizeof(T)); cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice); return p; }
template <class T> static std::vector<T> down(const T* p, size_t n) { std::vector<T> v(n); cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost); return v; }
static int fails = 0;
template <class T> static void report(const char* what, const std::vector<T>& got, const std::vector<double>& want, double tol) {
  double s = 0, e = 0;
  for (size_t i = 0; i < got.size(); i++) { s += got[i]; e = fmax(e, fabs(got[i] - want[i]) / (1 + fabs(want[i]))); }
  printf("%-12s sum %.6e %s\n", what, s, e < tol ? "ok" : "BAD");
  fails += e >= tol;
}

int main() {
  {  // atax and bicg
    const int nx = 300, ny = 260;
    std::vector<float> A(nx * ny), x(ny), r(nx);
    for (auto& v : A) v = rnd() - 0.5f;
    for (auto& v : x) v = rnd();
    for (auto& v : r) v = rnd();
    float *dA = up(A), *dx = up(x), *dr = up(r), *dt, *dy, *dq, *ds;
    cudaMalloc(&dt, nx * 4); cudaMalloc(&dy, ny * 4); cudaMalloc(&dq, nx * 4); cudaMalloc(&ds, ny * 4);
    ataxRow<<<(nx + 63) / 64, 64>>>(dA, dx, dt, nx, ny);
    ataxCol<<<(ny + 63) / 64, 64>>>(dA, dt, dy, nx, ny);
    bicg<<<(nx + ny + 127) / 128, 128>>>(dA, dx, dr, dq, ds, nx, ny);
    std::vector<double> t(nx), y(ny, 0), q(nx), s(ny, 0);
    for (int i = 0; i < nx; i++) { double a = 0; for (int j = 0; j < ny; j++) a += A[i * ny + j] * (double)x[j]; t[i] = a; q[i] = a; }
    for (int j = 0; j < ny; j++) for (int i = 0; i < nx; i++) { y[j] += A[i * ny + j] * t[i]; s[j] += r[i] * (double)A[i * ny + j]; }
    report("atax", down(dy, ny), y, 1e-3);
    report("bicg q", down(dq, nx), q, 1e-3);
    report("bicg s", down(ds, ny), s, 1e-3);
  }
  {  // Gram-Schmidt
    const int m = 80, n = 24;
    std::vector<float> A(m * n);
    for (auto& v : A) v = rnd() + 0.01f;
    std::vector<double> hA(A.begin(), A.end()), hQ(m * n), hR(n * n, 0);
    float *dA = up(A), *dR, *dQ;
    cudaMalloc(&dR, n * n * 4); cudaMalloc(&dQ, m * n * 4);
    cudaMemset(dR, 0, n * n * 4);
    for (int k = 0; k < n; k++) {
      gsNorm<<<1, 256>>>(dA, dR, m, n, k);
      gsScale<<<(m + 63) / 64, 64>>>(dA, dR, dQ, m, n, k);
      gsUpdate<<<(n - k - 1 + 31) / 32 > 0 ? (n - k - 1 + 31) / 32 : 1, 32>>>(dA, dR, dQ, m, n, k);
      double nr = 0;
      for (int i = 0; i < m; i++) nr += hA[i * n + k] * hA[i * n + k];
      hR[k * n + k] = sqrt(nr);
      for (int i = 0; i < m; i++) hQ[i * n + k] = hA[i * n + k] / hR[k * n + k];
      for (int j = k + 1; j < n; j++) {
        double s = 0;
        for (int i = 0; i < m; i++) s += hQ[i * n + k] * hA[i * n + j];
        hR[k * n + j] = s;
        for (int i = 0; i < m; i++) hA[i * n + j] -= hQ[i * n + k] * s;
      }
    }
    report("gramschmidt R", down(dR, n * n), hR, 1e-2);
    report("gramschmidt Q", down(dQ, m * n), hQ, 1e-2);
  }
  {  // fdtd-2d
    const int nx = 70, ny = 90, tmax = 8;
    std::vector<float> ex(nx * (ny + 1)), ey(nx * ny), hz(nx * ny), fict(tmax);
    for (int i = 0; i < nx; i++)
      for (int j = 0; j < ny; j++) { ex[i * (ny + 1) + j] = (float)i * (j + 1) / nx; ey[i * ny + j] = (float)i * (j + 2) / ny; hz[i * ny + j] = (float)i * (j + 3) / nx; }
    for (int t = 0; t < tmax; t++) fict[t] = (float)t;
    std::vector<double> hex(ex.begin(), ex.end()), hey(ey.begin(), ey.end()), hhz(hz.begin(), hz.end());
    float *dex = up(ex), *dey = up(ey), *dhz = up(hz), *df = up(fict);
    dim3 b(32, 8), g((ny + 31) / 32, (nx + 7) / 8);
    for (int t = 0; t < tmax; t++) {
      fdtdEy<<<g, b>>>(dey, dhz, df, nx, ny, t);
      fdtdEx<<<g, b>>>(dex, dhz, nx, ny);
      fdtdHz<<<g, b>>>(dhz, dex, dey, nx, ny);
      for (int j = 0; j < ny; j++) hey[j] = fict[t];
      for (int i = 1; i < nx; i++) for (int j = 0; j < ny; j++) hey[i * ny + j] -= 0.5 * (hhz[i * ny + j] - hhz[(i - 1) * ny + j]);
      for (int i = 0; i < nx; i++) for (int j = 1; j < ny; j++) hex[i * (ny + 1) + j] -= 0.5 * (hhz[i * ny + j] - hhz[i * ny + j - 1]);
      for (int i = 0; i < nx - 1; i++) for (int j = 0; j < ny - 1; j++)
        hhz[i * ny + j] -= 0.7 * (hex[i * (ny + 1) + j + 1] - hex[i * (ny + 1) + j] + hey[(i + 1) * ny + j] - hey[i * ny + j]);
    }
    report("fdtd hz", down(dhz, nx * ny), hhz, 1e-3);
  }
  {  // correlation, in double
    const int m = 72, n = 100;
    std::vector<double> d(n * m);
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) d[i * m + j] = j % 9 == 4 ? 2.0 + 0.01 * rnd() : (double)rnd() * (1 + j % 5) + 0.1 * i * (j % 3);
    double *dd = up(d), *dmean, *dsd, *dc;
    cudaMalloc(&dmean, m * 8); cudaMalloc(&dsd, m * 8); cudaMalloc(&dc, m * m * 8);
    cudaMemset(dc, 0, m * m * 8);
    corrMean<<<(m + 31) / 32, 32>>>(dd, dmean, m, n);
    corrStd<<<(m + 31) / 32, 32>>>(dd, dmean, dsd, m, n);
    corrCentre<<<dim3((m + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(dd, dmean, dsd, m, n);
    corrMat<<<(m + 31) / 32, 32>>>(dd, dc, m, n);
    std::vector<double> mean(m), sd(m), c(m * m, 0);
    for (int j = 0; j < m; j++) { double s = 0; for (int i = 0; i < n; i++) s += d[i * m + j]; mean[j] = s / n; }
    for (int j = 0; j < m; j++) { double s = 0; for (int i = 0; i < n; i++) s += (d[i * m + j] - mean[j]) * (d[i * m + j] - mean[j]); s = sqrt(s / n); sd[j] = s <= 0.1 ? 1.0 : s; }
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) d[i * m + j] = (d[i * m + j] - mean[j]) / (sqrt((double)n) * sd[j]);
    for (int j1 = 0; j1 < m; j1++) { c[j1 * m + j1] = 1; for (int j2 = j1 + 1; j2 < m; j2++) { double s = 0; for (int i = 0; i < n; i++) s += d[i * m + j1] * d[i * m + j2]; c[j1 * m + j2] = c[j2 * m + j1] = s; } }
    std::vector<double> got = down(dc, m * m);
    report("correlation", got, c, 1e-9);
    unsigned long long h = 0;
    for (double v : got) { unsigned long long b; memcpy(&b, &v, 8); h = h * 1000003ull + b; }
    printf("correlation bits %016llx\n", h);
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
