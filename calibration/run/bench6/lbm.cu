// A lattice-Boltzmann step (D3Q19, BGK collision; the shape of Parboil's lbm): the 19
// distributions stored as structure of arrays (f[q * cells + cell]), one thread per cell pulling
// its 19 values from the neighbours (periodic box), cells flagged obstacle bouncing back, cells
// flagged inflow forced to equilibrium at a fixed velocity, the rest relaxed to equilibrium; a
// ping-pong of 6 steps, then the mass and momentum summed on the host. The host runs the same
// steps in double and checks the fields.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstring>

#define NX 32
#define NY 32
#define NZ 16
#define CELLS (NX * NY * NZ)
#define Q 19
__constant__ int cx[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int cy[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int cz[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant__ int opp[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
__constant__ float wq[Q] = {1.f / 3, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                            1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                            1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
enum { FLUID = 0, OBSTACLE = 1, INFLOW = 2 };

__global__ void step(const float* __restrict__ src, float* __restrict__ dst,
                     const unsigned char* __restrict__ flag, float omega, float uin) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  int cell = (z * NY + y) * NX + x;
  float f[Q];
#pragma unroll
  for (int q = 0; q < Q; q++) {
    int sx = (x - cx[q] + NX) % NX, sy = (y - cy[q] + NY) % NY, sz = (z - cz[q] + NZ) % NZ;
    f[q] = src[q * CELLS + (sz * NY + sy) * NX + sx];
  }
  unsigned char fl = flag[cell];
  if (fl == OBSTACLE) {
#pragma unroll
    for (int q = 0; q < Q; q++) dst[opp[q] * CELLS + cell] = f[q];
    return;
  }
  float rho = 0.f, ux = 0.f, uy = 0.f, uz = 0.f;
#pragma unroll
  for (int q = 0; q < Q; q++) { rho += f[q]; ux += cx[q] * f[q]; uy += cy[q] * f[q]; uz += cz[q] * f[q]; }
  ux /= rho; uy /= rho; uz /= rho;
  float w = omega;
  if (fl == INFLOW) { ux = uin; uy = 0.f; uz = 0.f; rho = 1.f; w = 1.f; }
  float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
  for (int q = 0; q < Q; q++) {
    float cu = 3.f * (cx[q] * ux + cy[q] * uy + cz[q] * uz);
    float eq = wq[q] * rho * (1.f + cu + 0.5f * cu * cu - u2);
    dst[q * CELLS + cell] = f[q] + w * (eq - f[q]);
  }
}

int main() {
  const int hcx[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
  const int hcy[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
  const int hcz[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
  const int hop[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
  double hw[Q];
  for (int q = 0; q < Q; q++) hw[q] = q == 0 ? 1.0 / 3 : q < 7 ? 1.0 / 18 : 1.0 / 36;
  std::vector<unsigned char> flag(CELLS, FLUID);
  for (int z = 0; z < NZ; z++)
    for (int y = 0; y < NY; y++)
      for (int x = 0; x < NX; x++) {
        int c = (z * NY + y) * NX + x;
        float dx = x - 12.5f, dy = y - 15.5f, dz = z - 7.5f;
        if (dx * dx + dy * dy + dz * dz < 20.f) flag[c] = OBSTACLE;
        if (x == 0) flag[c] = INFLOW;
      }
  std::vector<float> f(Q * CELLS);
  std::vector<double> hf(Q * CELLS), hg(Q * CELLS);
  for (int q = 0; q < Q; q++)
    for (int c = 0; c < CELLS; c++) {
      float v = (float)hw[q] * (1.f + 0.01f * (float)((c * 7 + q * 13) % 17) / 17.f);
      f[q * CELLS + c] = v; hf[q * CELLS + c] = v;
    }
  float *d0, *d1;
  unsigned char* dflag;
  cudaMalloc(&d0, f.size() * 4); cudaMalloc(&d1, f.size() * 4); cudaMalloc(&dflag, CELLS);
  cudaMemcpy(d0, f.data(), f.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dflag, flag.data(), CELLS, cudaMemcpyHostToDevice);
  const float omega = 1.7f, uin = 0.05f;
  const int steps = 6;
  for (int s = 0; s < steps; s++) {
    step<<<dim3(NX / 32, NY, NZ), 32>>>(s % 2 ? d1 : d0, s % 2 ? d0 : d1, dflag, omega, uin);
    // the host's step, in double
    for (int z = 0; z < NZ; z++)
      for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++) {
          int c = (z * NY + y) * NX + x;
          double g[Q];
          for (int q = 0; q < Q; q++) {
            int sx = (x - hcx[q] + NX) % NX, sy = (y - hcy[q] + NY) % NY, sz = (z - hcz[q] + NZ) % NZ;
            g[q] = hf[q * CELLS + (sz * NY + sy) * NX + sx];
          }
          if (flag[c] == OBSTACLE) { for (int q = 0; q < Q; q++) hg[hop[q] * CELLS + c] = g[q]; continue; }
          double rho = 0, ux = 0, uy = 0, uz = 0, w = omega;
          for (int q = 0; q < Q; q++) { rho += g[q]; ux += hcx[q] * g[q]; uy += hcy[q] * g[q]; uz += hcz[q] * g[q]; }
          ux /= rho; uy /= rho; uz /= rho;
          if (flag[c] == INFLOW) { ux = uin; uy = uz = 0; rho = 1; w = 1; }
          double u2 = 1.5 * (ux * ux + uy * uy + uz * uz);
          for (int q = 0; q < Q; q++) {
            double cu = 3 * (hcx[q] * ux + hcy[q] * uy + hcz[q] * uz);
            double eq = hw[q] * rho * (1 + cu + 0.5 * cu * cu - u2);
            hg[q * CELLS + c] = g[q] + w * (eq - g[q]);
          }
        }
    hf.swap(hg);
  }
  cudaMemcpy(f.data(), steps % 2 ? d1 : d0, f.size() * 4, cudaMemcpyDeviceToHost);
  double mass = 0, mx = 0, err = 0;
  unsigned h = 0;
  for (int q = 0; q < Q; q++)
    for (int c = 0; c < CELLS; c++) {
      float v = f[q * CELLS + c];
      mass += v; mx += hcx[q] * v;
      err = fmax(err, fabs(v - hf[q * CELLS + c]));
      unsigned b; memcpy(&b, &v, 4); h = h * 31u + b;
    }
  printf("lbm %dx%dx%d steps %d mass %.5f momentum %.6f bits %08x %s\n", NX, NY, NZ, steps, mass, mx, h, err < 1e-4 ? "ok" : "BAD");
  printf("%s\n", err < 1e-4 ? "PASS" : "FAIL");
  return 0;
}
