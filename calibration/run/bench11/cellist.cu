// Particles in a uniform grid of cells (the neighbour-list shape of particle simulations): a count
// per cell by global `atomicAdd`, a one-block exclusive scan of the 4096 counts (4 a thread, warp
// scans by `__shfl_up_sync`, warp totals in shared memory), a scatter into the cells' slots by the
// slot each `atomicAdd` returned (the GPU's order), each cell's list then ranked by particle index
// (a thread a cell, a count of smaller indices: the same work whatever that order was), then a
// density a particle over the 27 neighbour cells clamped at the walls (a cutoff test, a cubic
// kernel) with the neighbour counts, the largest by `atomicMax`. The host computes the cells,
// the counts exactly and the densities within 1e-5.
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

__global__ void countCells(const float3 *p, int *cnt, int *slot, int *cell, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = cellOf(p[i]);
  cell[i] = c;
  slot[i] = atomicAdd(&cnt[c], 1);
}

__global__ void scanCounts(const int *cnt, int *start) {  // one block of 1024, 4 a thread
  __shared__ int wsum[32];
  int t = threadIdx.x, lane = t & 31, w = t >> 5;
  int4 v = reinterpret_cast<const int4 *>(cnt)[t];
  int s = v.x + v.y + v.z + v.w, incl = s;
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += u;
  }
  if (lane == 31) wsum[w] = incl;
  __syncthreads();
  if (w == 0) {
    int x = wsum[lane], y = x;
    for (int o = 1; o < 32; o <<= 1) {
      int u = __shfl_up_sync(0xffffffffu, y, o);
      if (lane >= o) y += u;
    }
    wsum[lane] = y - x;
  }
  __syncthreads();
  int base = wsum[w] + incl - s;
  reinterpret_cast<int4 *>(start)[t] = make_int4(base, base + v.x, base + v.x + v.y, base + v.x + v.y + v.z);
}

__global__ void scatter(const int *cell, const int *slot, const int *start, int *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[start[cell[i]] + slot[i]] = i;
}

__global__ void rankCells(const int *tmp, const int *start, const int *cnt, int *sorted) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= NC) return;
  int b = start[c], m = cnt[c];
  for (int a = 0; a < m; ++a) {
    int ia = tmp[b + a], r = 0;
    for (int k = 0; k < m; ++k) r += tmp[b + k] < ia;
    sorted[b + r] = ia;
  }
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

int main() {
  std::vector<float3> p(NP);
  unsigned s = 7u;
  auto u = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return (float)(s & 0xffffff) / 16777216.0f; };
  for (int i = 0; i < NP; ++i) {
    if (i % 3 == 0) {  // a dense blob
      p[i] = make_float3(5.0f + 3.0f * u(), 9.0f + 2.5f * u(), 4.0f + 3.0f * u());
    } else {
      p[i] = make_float3(G * u(), G * u(), G * u());
    }
  }
  float3 *dp; int *dcnt, *dslot, *dcell, *dstart, *dtmp, *dsorted, *dnbr, *dmax; float *drho;
  CK(cudaMalloc(&dp, NP * sizeof(float3))); CK(cudaMalloc(&dcnt, NC * 4)); CK(cudaMalloc(&dslot, NP * 4));
  CK(cudaMalloc(&dcell, NP * 4)); CK(cudaMalloc(&dstart, NC * 4)); CK(cudaMalloc(&dtmp, NP * 4));
  CK(cudaMalloc(&dsorted, NP * 4)); CK(cudaMalloc(&dnbr, NP * 4)); CK(cudaMalloc(&dmax, 4));
  CK(cudaMalloc(&drho, NP * 4));
  CK(cudaMemcpy(dp, p.data(), NP * sizeof(float3), cudaMemcpyHostToDevice));
  CK(cudaMemset(dcnt, 0, NC * 4)); CK(cudaMemset(dmax, 0, 4));
  countCells<<<(NP + 255) / 256, 256>>>(dp, dcnt, dslot, dcell, NP);
  scanCounts<<<1, 1024>>>(dcnt, dstart);
  scatter<<<(NP + 255) / 256, 256>>>(dcell, dslot, dstart, dtmp, NP);
  rankCells<<<NC / 128, 128>>>(dtmp, dstart, dcnt, dsorted);
  density<<<(NP + 127) / 128, 128>>>(dp, dsorted, dstart, dcnt, drho, dnbr, dmax, NP);
  CK(cudaGetLastError());
  std::vector<int> cnt(NC), start(NC), sorted(NP), nbr(NP);
  std::vector<float> rho(NP);
  int mx;
  CK(cudaMemcpy(cnt.data(), dcnt, NC * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(start.data(), dstart, NC * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sorted.data(), dsorted, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(nbr.data(), dnbr, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rho.data(), drho, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&mx, dmax, 4, cudaMemcpyDeviceToHost));
  // host: cells in index order
  std::vector<int> hc(NC, 0), hs(NC), hl(NP);
  for (int i = 0; i < NP; ++i) ++hc[cellOf(p[i])];
  int acc = 0;
  for (int c = 0; c < NC; ++c) { hs[c] = acc; acc += hc[c]; }
  std::vector<int> fill = hs;
  for (int i = 0; i < NP; ++i) hl[fill[cellOf(p[i])]++] = i;
  int bad = 0, hmx = 0;
  for (int c = 0; c < NC; ++c) bad += cnt[c] != hc[c] || start[c] != hs[c];
  for (int i = 0; i < NP; ++i) bad += sorted[i] != hl[i];
  double rsum = 0, maxRel = 0;
  long long nsum = 0;
  for (int i = 0; i < NP; ++i) {
    float3 q = p[i];
    int cx = std::min(std::max((int)q.x, 0), G - 1), cy = std::min(std::max((int)q.y, 0), G - 1),
        cz = std::min(std::max((int)q.z, 0), G - 1);
    double r = 0; int k = 0;
    for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, G - 1); ++z)
      for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, G - 1); ++y)
        for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, G - 1); ++x) {
          int c = x + G * (y + G * z);
          for (int a = 0; a < hc[c]; ++a) {
            int j = hl[hs[c] + a];
            if (j == i) continue;
            double dx = q.x - p[j].x, dy = q.y - p[j].y, dz = q.z - p[j].z;
            double r2 = dx * dx + dy * dy + dz * dz;
            float fdx = q.x - p[j].x, fdy = q.y - p[j].y, fdz = q.z - p[j].z;
            float fr2 = fmaf(fdz, fdz, fmaf(fdy, fdy, fdx * fdx));
            if (fr2 < 1.0f) { double w = 1.0 - r2; r += w * w * w; ++k; }
          }
        }
    bad += nbr[i] != k;
    hmx = std::max(hmx, k);
    maxRel = std::max(maxRel, fabs(rho[i] - r) / (r > 1e-3 ? r : 1e-3));
    rsum += rho[i];
    nsum += nbr[i];
  }
  bad += mx != hmx;
  printf("cells %d, particles %d: %d wrong, max neighbours %d, neighbours %lld, density sum %.4f (max rel err %.2e)\n",
         NC, NP, bad, mx, nsum, rsum, maxRel);
  bool ok = bad == 0 && maxRel < 1e-4;
  printf("cellist: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
