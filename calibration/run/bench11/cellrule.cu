// The density kernel of cellist.cu on cell lists the host builds (no atomics: every input the
// same on every run), three ways: as in cellist.cu (the inner loop unrolled by nvcc, `continue`
// for the particle itself), with `#pragma unroll 1`, and with the self test folded into the
// cutoff test (no `continue`). The host checks the counts; the H200's global sectors of the
// first equal cellist.cu's `density` on the same inputs or not.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int G = 16, NC = G * G * G, NP = 12000;

__host__ __device__ inline int cellOf(float3 p) {
  int x = min(max((int)p.x, 0), G - 1), y = min(max((int)p.y, 0), G - 1), z = min(max((int)p.z, 0), G - 1);
  return x + G * (y + G * z);
}

__global__ void density(const float3 *p, const int *sorted, const int *start, const int *cnt, float *rho,
                        int *nbr, int *maxNbr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 q = p[i];
  int cx = min(max((int)q.x, 0), G - 1), cy = min(max((int)q.y, 0), G - 1), cz = min(max((int)q.z, 0), G - 1);
  float r = 0.0f;
  int k = 0;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, G - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, G - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, G - 1); ++x) {
        int c = x + G * (y + G * z), b = start[c], m = cnt[c];
        for (int a = 0; a < m; ++a) {
          int j = sorted[b + a];
          if (j == i) continue;
          float3 o = p[j];
          float dx = q.x - o.x, dy = q.y - o.y, dz = q.z - o.z;
          float r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < 1.0f) {
            float w = 1.0f - r2;
            r += w * w * w;
            ++k;
          }
        }
      }
  rho[i] = r;
  nbr[i] = k;
  atomicMax(maxNbr, k);
}

__global__ void densityOnce(const float3 *p, const int *sorted, const int *start, const int *cnt, float *rho,
                        int *nbr, int *maxNbr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 q = p[i];
  int cx = min(max((int)q.x, 0), G - 1), cy = min(max((int)q.y, 0), G - 1), cz = min(max((int)q.z, 0), G - 1);
  float r = 0.0f;
  int k = 0;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, G - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, G - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, G - 1); ++x) {
        int c = x + G * (y + G * z), b = start[c], m = cnt[c];
#pragma unroll 1
        for (int a = 0; a < m; ++a) {
          int j = sorted[b + a];
          if (j == i) continue;
          float3 o = p[j];
          float dx = q.x - o.x, dy = q.y - o.y, dz = q.z - o.z;
          float r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < 1.0f) {
            float w = 1.0f - r2;
            r += w * w * w;
            ++k;
          }
        }
      }
  rho[i] = r;
  nbr[i] = k;
  atomicMax(maxNbr, k);
}

__global__ void densityNoSkip(const float3 *p, const int *sorted, const int *start, const int *cnt, float *rho,
                        int *nbr, int *maxNbr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 q = p[i];
  int cx = min(max((int)q.x, 0), G - 1), cy = min(max((int)q.y, 0), G - 1), cz = min(max((int)q.z, 0), G - 1);
  float r = 0.0f;
  int k = 0;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, G - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, G - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, G - 1); ++x) {
        int c = x + G * (y + G * z), b = start[c], m = cnt[c];
        for (int a = 0; a < m; ++a) {
          int j = sorted[b + a];
          float3 o = p[j];
          float dx = q.x - o.x, dy = q.y - o.y, dz = q.z - o.z;
          float r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < 1.0f && j != i) {
            float w = 1.0f - r2;
            r += w * w * w;
            ++k;
          }
        }
      }
  rho[i] = r;
  nbr[i] = k;
  atomicMax(maxNbr, k);
}

int main() {
  std::vector<float3> p(NP);
  unsigned s = 7u;
  auto u = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return (float)(s & 0xffffff) / 16777216.0f; };
  for (int i = 0; i < NP; ++i) {
    if (i % 3 == 0) {
      p[i] = make_float3(5.0f + 3.0f * u(), 9.0f + 2.5f * u(), 4.0f + 3.0f * u());
    } else {
      p[i] = make_float3(G * u(), G * u(), G * u());
    }
  }
  std::vector<int> hc(NC, 0), hs(NC), hl(NP);
  for (int i = 0; i < NP; ++i) ++hc[cellOf(p[i])];
  int acc = 0;
  for (int c = 0; c < NC; ++c) { hs[c] = acc; acc += hc[c]; }
  std::vector<int> fill = hs;
  for (int i = 0; i < NP; ++i) hl[fill[cellOf(p[i])]++] = i;
  float3 *dp; int *dcnt, *dstart, *dsorted, *dnbr, *dmax; float *drho;
  CK(cudaMalloc(&dp, NP * sizeof(float3))); CK(cudaMalloc(&dcnt, NC * 4)); CK(cudaMalloc(&dstart, NC * 4));
  CK(cudaMalloc(&dsorted, NP * 4)); CK(cudaMalloc(&dnbr, NP * 4)); CK(cudaMalloc(&dmax, 4)); CK(cudaMalloc(&drho, NP * 4));
  CK(cudaMemcpy(dp, p.data(), NP * sizeof(float3), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcnt, hc.data(), NC * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dstart, hs.data(), NC * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dsorted, hl.data(), NP * 4, cudaMemcpyHostToDevice));
  int fails = 0;
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(dmax, 0, 4));
    if (v == 0) density<<<(NP + 127) / 128, 128>>>(dp, dsorted, dstart, dcnt, drho, dnbr, dmax, NP);
    if (v == 1) densityOnce<<<(NP + 127) / 128, 128>>>(dp, dsorted, dstart, dcnt, drho, dnbr, dmax, NP);
    if (v == 2) densityNoSkip<<<(NP + 127) / 128, 128>>>(dp, dsorted, dstart, dcnt, drho, dnbr, dmax, NP);
    CK(cudaGetLastError());
    std::vector<int> nbr(NP);
    std::vector<float> rho(NP);
    int mx;
    CK(cudaMemcpy(nbr.data(), dnbr, NP * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rho.data(), drho, NP * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&mx, dmax, 4, cudaMemcpyDeviceToHost));
    long long nsum = 0; double rsum = 0; int bad = 0;
    for (int i = 0; i < NP; ++i) {
      float3 q = p[i];
      int cx = std::min(std::max((int)q.x, 0), G - 1), cy = std::min(std::max((int)q.y, 0), G - 1),
          cz = std::min(std::max((int)q.z, 0), G - 1);
      int k = 0;
      for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, G - 1); ++z)
        for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, G - 1); ++y)
          for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, G - 1); ++x) {
            int c = x + G * (y + G * z);
            for (int a = 0; a < hc[c]; ++a) {
              int j = hl[hs[c] + a];
              if (j == i) continue;
              float fdx = q.x - p[j].x, fdy = q.y - p[j].y, fdz = q.z - p[j].z;
              k += fmaf(fdz, fdz, fmaf(fdy, fdy, fdx * fdx)) < 1.0f;
            }
          }
      bad += nbr[i] != k;
      nsum += nbr[i];
      rsum += rho[i];
    }
    printf("variant %d: %d wrong, max neighbours %d, neighbours %lld, density sum %.4f\n", v, bad, mx, nsum, rsum);
    fails += bad != 0;
  }
  printf("cellrule: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
