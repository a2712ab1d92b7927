// MRI reconstruction's Q matrix (the shape of Parboil's mri-q): the k-space samples' magnitudes
// first (phiMag), then for every voxel a loop over the samples held in constant memory, chunk by
// chunk (one launch per chunk, cudaMemcpyToSymbol between), accumulating phiMag * cos and sin of
// 2*pi*(k . x). Once with the precise sincosf (arguments up to ~2e5 radians: the slow argument
// reduction runs for some) and once with the fast __sincosf. The host checks the precise one.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstring>

#define CHUNK 256
struct KVal { float kx, ky, kz, phiMag; };
__constant__ KVal ck[CHUNK];

__global__ void phiMag(const float* phiR, const float* phiI, float* mag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float r = phiR[i], m = phiI[i]; mag[i] = r * r + m * m; }
}

__global__ void computeQ(const float* x, const float* y, const float* z, float* qr, float* qi,
                         int nx, int nk) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nx) return;
  float px = x[t], py = y[t], pz = z[t], sr = qr[t], si = qi[t];
  for (int k = 0; k < nk; k++) {
    float arg = 6.2831853f * (ck[k].kx * px + ck[k].ky * py + ck[k].kz * pz);
    float s, c;
    sincosf(arg, &s, &c);
    sr += ck[k].phiMag * c;
    si += ck[k].phiMag * s;
  }
  qr[t] = sr; qi[t] = si;
}

__global__ void computeQFast(const float* x, const float* y, const float* z, float* qr, float* qi,
                             int nx, int nk) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nx) return;
  float px = x[t], py = y[t], pz = z[t], sr = qr[t], si = qi[t];
#pragma unroll 4
  for (int k = 0; k < nk; k++) {
    float arg = 6.2831853f * (ck[k].kx * px + ck[k].ky * py + ck[k].kz * pz);
    float s, c;
    __sincosf(arg, &s, &c);
    sr += ck[k].phiMag * c;
    si += ck[k].phiMag * s;
  }
  qr[t] = sr; qi[t] = si;
}

static unsigned lcg = 99u;
static float u(float lo, float hi) { lcg = lcg * 1664525u + 1013904223u; return lo + (hi - lo) * (float)(lcg >> 8) / 16777216.f; }

int main() {
  const int nk = 600, nx = 2048;
  std::vector<float> kx(nk), ky(nk), kz(nk), pr(nk), pi(nk), x(nx), y(nx), z(nx);
  for (int k = 0; k < nk; k++) {
    kx[k] = u(-60.f, 60.f); ky[k] = u(-60.f, 60.f); kz[k] = u(-8.f, 8.f);
    if (k % 50 == 7) kx[k] = u(900.f, 1500.f);  // a few far samples: huge arguments
    pr[k] = u(-1.f, 1.f); pi[k] = u(-1.f, 1.f);
  }
  for (int i = 0; i < nx; i++) { x[i] = u(-16.f, 16.f); y[i] = u(-16.f, 16.f); z[i] = u(-4.f, 4.f); }
  float *dpr, *dpi, *dmag, *dx, *dy, *dz, *dqr, *dqi;
  cudaMalloc(&dpr, nk * 4); cudaMalloc(&dpi, nk * 4); cudaMalloc(&dmag, nk * 4);
  cudaMalloc(&dx, nx * 4); cudaMalloc(&dy, nx * 4); cudaMalloc(&dz, nx * 4);
  cudaMalloc(&dqr, nx * 4); cudaMalloc(&dqi, nx * 4);
  cudaMemcpy(dpr, pr.data(), nk * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dpi, pi.data(), nk * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), nx * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), nx * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dz, z.data(), nx * 4, cudaMemcpyHostToDevice);
  phiMag<<<(nk + 127) / 128, 128>>>(dpr, dpi, dmag, nk);
  std::vector<float> mag(nk);
  cudaMemcpy(mag.data(), dmag, nk * 4, cudaMemcpyDeviceToHost);
  int fails = 0;
  for (int fast = 0; fast < 2; fast++) {
    cudaMemset(dqr, 0, nx * 4); cudaMemset(dqi, 0, nx * 4);
    for (int k0 = 0; k0 < nk; k0 += CHUNK) {
      int m = nk - k0 < CHUNK ? nk - k0 : CHUNK;
      KVal kv[CHUNK];
      for (int k = 0; k < m; k++) kv[k] = {kx[k0 + k], ky[k0 + k], kz[k0 + k], mag[k0 + k]};
      cudaMemcpyToSymbol(ck, kv, m * sizeof(KVal));
      if (fast) computeQFast<<<nx / 128, 128>>>(dx, dy, dz, dqr, dqi, nx, m);
      else computeQ<<<nx / 128, 128>>>(dx, dy, dz, dqr, dqi, nx, m);
    }
    std::vector<float> qr(nx), qi(nx);
    cudaMemcpy(qr.data(), dqr, nx * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(qi.data(), dqi, nx * 4, cudaMemcpyDeviceToHost);
    double sr = 0, si = 0, err = 0;
    unsigned h = 0;
    for (int i = 0; i < nx; i++) {
      sr += qr[i]; si += qi[i];
      unsigned b; memcpy(&b, &qr[i], 4); h = h * 31u + b; memcpy(&b, &qi[i], 4); h = h * 31u + b;
    }
    if (!fast)
      for (int i = 0; i < nx; i += 7) {
        double a = 0, c = 0;
        for (int k = 0; k < nk; k++) {
          float arg = 6.2831853f * fmaf(kz[k], z[i], fmaf(ky[k], y[i], kx[k] * x[i]));
          a += mag[k] * cos((double)arg); c += mag[k] * sin((double)arg);
        }
        err = fmax(err, fmax(fabs(a - qr[i]), fabs(c - qi[i])));
      }
    printf("%s Qr %.5f Qi %.5f bits %08x%s\n", fast ? "fast   " : "precise", sr, si, h,
           fast ? "" : (err < 0.5 ? " ok" : " BAD"));
    fails += !fast && err >= 0.5;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
