// 2-D Ising model by checkerboard Metropolis: a launch a colour (a thread a site of that colour,
// periodic neighbours), random numbers from a counter hash of (site, sweep, seed), acceptance by
// integer thresholds exp(-beta dE) * 2^32 in __constant__; every 10 sweeps a measurement launch
// (energy and magnetisation by a shared tree, integer atomics). The host runs the same chain.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>

__constant__ uint32_t THR[5];  // index (dE / 4): dE = 4, 8 -> THR[1], THR[2]

__host__ __device__ inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^ c * 0xc2b2ae35u;
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

__host__ __device__ inline int flipOne(const signed char *s, int L, int x, int y, int sweep, uint32_t seed,
                                       const uint32_t *thr) {
  int xl = x == 0 ? L - 1 : x - 1, xr = x == L - 1 ? 0 : x + 1;
  int yu = y == 0 ? L - 1 : y - 1, yd = y == L - 1 ? 0 : y + 1;
  int me = s[y * L + x];
  int nb = s[y * L + xl] + s[y * L + xr] + s[yu * L + x] + s[yd * L + x];
  int dE = 2 * me * nb;  // -8 .. 8
  if (dE <= 0) return -me;
  uint32_t r = hash3(y * L + x, sweep, seed);
  return r < thr[dE >> 2] ? -me : me;
}

__global__ void update(signed char *s, int L, int colour, int sweep, uint32_t seed) {
  int half = blockIdx.x * blockDim.x + threadIdx.x;  // index among this colour's sites
  if (half >= L * L / 2) return;
  int y = half / (L / 2);
  int x = 2 * (half % (L / 2)) + ((y + colour) & 1);
  s[y * L + x] = (signed char)flipOne(s, L, x, y, sweep, seed, THR);
}

__global__ void measure(const signed char *s, int L, int *energy, int *mag) {
  __shared__ int e[256], m[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ei = 0, mi = 0;
  if (i < L * L) {
    int x = i % L, y = i / L;
    int me = s[i];
    ei = -me * (s[y * L + (x + 1) % L] + s[((y + 1) % L) * L + x]);
    mi = me;
  }
  e[threadIdx.x] = ei; m[threadIdx.x] = mi;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) { e[threadIdx.x] += e[threadIdx.x + h]; m[threadIdx.x] += m[threadIdx.x + h]; }
    __syncthreads();
  }
  if (threadIdx.x == 0) { atomicAdd(energy, e[0]); atomicAdd(mag, m[0]); }
}

int main(int argc, char **argv) {
  int L = argc > 1 ? atoi(argv[1]) : 1024;
  int sweeps = argc > 2 ? atoi(argv[2]) : 60;
  double beta = 0.42;
  uint32_t seed = 2024;
  uint32_t thr[5] = {0, 0, 0, 0, 0};
  for (int k = 1; k <= 2; k++) thr[k] = (uint32_t)(exp(-beta * 4 * k) * 4294967296.0);
  cudaMemcpyToSymbol(THR, thr, sizeof thr);
  std::vector<signed char> h(L * L);
  for (int i = 0; i < L * L; i++) h[i] = (hash3(i, 999, seed) & 3) ? 1 : -1;
  signed char *d; int *dE, *dM;
  cudaMalloc(&d, L * L); cudaMalloc(&dE, 4); cudaMalloc(&dM, 4);
  cudaMemcpy(d, h.data(), L * L, cudaMemcpyHostToDevice);
  int half = L * L / 2, bs = 256;
  bool ok = true;
  for (int sw = 1; sw <= sweeps; sw++) {
    update<<<(half + bs - 1) / bs, bs>>>(d, L, 0, sw, seed);
    update<<<(half + bs - 1) / bs, bs>>>(d, L, 1, sw, seed);
    for (int c = 0; c < 2; c++)
      for (int y = 0; y < L; y++)
        for (int x = ((y + c) & 1); x < L; x += 2) h[y * L + x] = (signed char)flipOne(h.data(), L, x, y, sw, seed, thr);
    if (sw % 10 == 0) {
      cudaMemset(dE, 0, 4); cudaMemset(dM, 0, 4);
      measure<<<(L * L + 255) / 256, 256>>>(d, L, dE, dM);
      int E, M, he = 0, hm = 0;
      cudaMemcpy(&E, dE, 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(&M, dM, 4, cudaMemcpyDeviceToHost);
      for (int y = 0; y < L; y++)
        for (int x = 0; x < L; x++) {
          int me = h[y * L + x];
          he -= me * (h[y * L + (x + 1) % L] + h[((y + 1) % L) * L + x]);
          hm += me;
        }
      printf("sweep %d: energy %d magnetisation %d (host %d %d)\n", sw, E, M, he, hm);
      ok &= E == he && M == hm;
    }
  }
  std::vector<signed char> g(L * L);
  cudaMemcpy(g.data(), d, L * L, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < L * L; i++) bad += g[i] != h[i];
  printf("%d x %d, %d sweeps: %d spins differ\n", L, L, sweeps, bad);
  ok &= bad == 0;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("ising: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
