// Cutoff Coulomb potential on a lattice (the shape of Parboil's cutcp): atoms sorted into cubic
// bins of 4 A (up to 8 slots a bin, empty slots with charge 0), a block per 8x8x2 region of
// lattice points, each block walking the neighbourhood's bins (offsets in constant memory),
// staging each bin's atoms in shared memory, and every thread adding q * (1 - r^2/c^2)^2 / r for
// the atoms within the cutoff. Regions at the edge skip bins outside the box. The host checks
// points of every region.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstring>
#include <cstdlib>

#define BIN 4.0f
#define SLOTS 8
#define NB 6          // bins per side: a box of 24 A
#define SPACING 0.5f
#define NP 32         // lattice points per side
#define CUT 8.0f
#define REACH 2       // bins each way the cutoff reaches
#define NOFF ((2 * REACH + 1) * (2 * REACH + 1) * (2 * REACH + 1))
__constant__ int binOff[NOFF][3];

__global__ void cutoff(const float4* bins, float* lattice) {
  __shared__ float4 at[SLOTS * 4];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z, tid = (tz * 8 + ty) * 8 + tx;
  int px = blockIdx.x * 8 + tx, py = blockIdx.y * 8 + ty, pz = blockIdx.z * 2 + tz;
  float x = px * SPACING, y = py * SPACING, z = pz * SPACING;
  // the bin holding the region's centre
  int cx = (int)((blockIdx.x * 8 + 4) * SPACING / BIN), cy = (int)((blockIdx.y * 8 + 4) * SPACING / BIN),
      cz = (int)((blockIdx.z * 2 + 1) * SPACING / BIN);
  float e = 0.f;
  const float c2 = CUT * CUT, inv = 1.f / c2;
  for (int o = 0; o < NOFF; o += 4) {
    // four bins at a time: 32 slots, one per thread of the first warp
    if (tid < SLOTS * 4) {
      int b = o + tid / SLOTS;
      float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
      if (b < NOFF) {
        int bx = cx + binOff[b][0], by = cy + binOff[b][1], bz = cz + binOff[b][2];
        if (bx >= 0 && bx < NB && by >= 0 && by < NB && bz >= 0 && bz < NB)
          a = bins[((bz * NB + by) * NB + bx) * SLOTS + tid % SLOTS];
      }
      at[tid] = a;
    }
    __syncthreads();
    for (int k = 0; k < SLOTS * 4; k++) {
      float4 a = at[k];
      if (a.w == 0.f) continue;
      float dx = a.x - x, dy = a.y - y, dz = a.z - z;
      float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < c2) {
        float s = 1.f - r2 * inv;
        e += a.w * rsqrtf(r2) * s * s;
      }
    }
    __syncthreads();
  }
  lattice[(pz * NP + py) * NP + px] = e;
}

static unsigned lcg = 31337u;
static float u01() { lcg = lcg * 1664525u + 1013904223u; return (float)(lcg >> 8) / 16777216.f; }

int main() {
  std::vector<float4> bins(NB * NB * NB * SLOTS, make_float4(0.f, 0.f, 0.f, 0.f));
  std::vector<int> fill(NB * NB * NB, 0);
  int natoms = 0, dropped = 0;
  for (int a = 0; a < 900; a++) {
    float x = 24.f * u01(), y = 24.f * u01(), z = 24.f * u01(), q = u01() < 0.5f ? -1.f - u01() : 1.f + u01();
    int b = ((int)(z / BIN) * NB + (int)(y / BIN)) * NB + (int)(x / BIN);
    if (fill[b] == SLOTS) { dropped++; continue; }
    bins[b * SLOTS + fill[b]++] = make_float4(x, y, z, q);
    natoms++;
  }
  int off[NOFF][3], n = 0;
  for (int k = -REACH; k <= REACH; k++)
    for (int j = -REACH; j <= REACH; j++)
      for (int i = -REACH; i <= REACH; i++) { off[n][0] = i; off[n][1] = j; off[n][2] = k; n++; }
  cudaMemcpyToSymbol(binOff, off, sizeof off);
  float4* dBins;
  float* dLat;
  const int npts = NP * NP * NP;
  cudaMalloc(&dBins, bins.size() * sizeof(float4));
  cudaMalloc(&dLat, npts * 4);
  cudaMemcpy(dBins, bins.data(), bins.size() * sizeof(float4), cudaMemcpyHostToDevice);
  cutoff<<<dim3(NP / 8, NP / 8, NP / 2), dim3(8, 8, 2)>>>(dBins, dLat);
  std::vector<float> lat(npts);
  cudaMemcpy(lat.data(), dLat, npts * 4, cudaMemcpyDeviceToHost);
  double sum = 0, err = 0;
  unsigned h = 0;
  for (int i = 0; i < npts; i++) { sum += lat[i]; unsigned b; memcpy(&b, &lat[i], 4); h = h * 31u + b; }
  for (int p = 0; p < npts; p += 97) {
    int px = p % NP, py = p / NP % NP, pz = p / (NP * NP);
    double x = px * SPACING, y = py * SPACING, z = pz * SPACING, e = 0;
    int cx = (int)(((px / 8) * 8 + 4) * SPACING / BIN), cy = (int)(((py / 8) * 8 + 4) * SPACING / BIN), cz = (int)(((pz / 2) * 2 + 1) * SPACING / BIN);
    for (int b = 0; b < NB * NB * NB; b++) {
      int bx = b % NB, by = b / NB % NB, bz = b / (NB * NB);
      if (abs(bx - cx) > REACH || abs(by - cy) > REACH || abs(bz - cz) > REACH) continue;
      for (int s = 0; s < fill[b]; s++) {
        float4 a = bins[b * SLOTS + s];
        double r2 = (a.x - x) * (a.x - x) + (a.y - y) * (a.y - y) + (a.z - z) * (a.z - z);
        if (r2 < CUT * CUT) { double t = 1 - r2 / (CUT * CUT); e += a.w / sqrt(r2) * t * t; }
      }
    }
    err = fmax(err, fabs(e - lat[p]) / (1 + fabs(e)));
  }
  printf("cutcp atoms %d dropped %d points %d sum %.4f bits %08x %s\n", natoms, dropped, npts, sum, h, err < 1e-3 ? "ok" : "BAD");
  printf("%s\n", err < 1e-3 ? "PASS" : "FAIL");
  return 0;
}
