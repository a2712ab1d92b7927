// Monte Carlo with an own generator: each thread runs an xorshift128 state seeded by a splitmix32
// of its index. Pi by darts with 15-bit integer coordinates (an exact inside test) counted by
// `__ballot_sync`/`__popc` and one atomicAdd a warp; normal variates by Marsaglia's polar method (a
// rejection do-while whose trip count depends on the data, `logf`, `sqrtf`, a float division), a
// mean and a second moment a block by shared reductions; and first-passage times of a random walk
// between two barriers (a loop leaving at either barrier or at 4096 steps). The host replays the
// integer parts exactly (darts, walks, the polar method's rejections) and checks the moments.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Rng { unsigned x, y, z, w; };
__host__ __device__ inline unsigned splitmix(unsigned v) {
  v += 0x9e3779b9u; v ^= v >> 16; v *= 0x21f0aaadu; v ^= v >> 15; v *= 0x735a2d97u; v ^= v >> 15; return v;
}
__host__ __device__ inline Rng seed(unsigned i) {
  Rng r; r.x = splitmix(i * 4 + 1); r.y = splitmix(i * 4 + 2); r.z = splitmix(i * 4 + 3); r.w = splitmix(i * 4 + 4) | 1u; return r;
}
__host__ __device__ inline unsigned next(Rng &r) {
  unsigned t = r.x ^ (r.x << 11);
  r.x = r.y; r.y = r.z; r.z = r.w;
  r.w = r.w ^ (r.w >> 19) ^ t ^ (t >> 8);
  return r.w;
}

__global__ void darts(int perThread, unsigned long long *inside) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Rng r = seed(i);
  int mine = 0;
  for (int k = 0; k < perThread; ++k) {
    unsigned v = next(r), x = v & 0x7fff, y = (v >> 15) & 0x7fff;
    bool in = x * x + y * y < 0x3fff0001u;
    unsigned m = __ballot_sync(0xffffffffu, in);
    if ((threadIdx.x & 31) == 0) mine += __popc(m);
  }
  if ((threadIdx.x & 31) == 0) atomicAdd(inside, (unsigned long long)mine);
}

__global__ void polar(int perThread, float *blockSum, float *blockSq, int *tries) {
  __shared__ float s1[256], s2[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Rng r = seed(i + 1000000u);
  float a = 0.f, q = 0.f;
  int t = 0;
  for (int k = 0; k < perThread; ++k) {
    float u, v, w;
    do {
      u = (next(r) >> 8) * (2.0f / 16777216.0f) - 1.0f;
      v = (next(r) >> 8) * (2.0f / 16777216.0f) - 1.0f;
      w = __fadd_rn(__fmul_rn(u, u), __fmul_rn(v, v));
      ++t;
    } while (w >= 1.0f || w == 0.0f);
    float f = sqrtf(-2.0f * logf(w) / w);
    a += u * f + v * f;
    q += u * f * u * f + v * f * v * f;
  }
  tries[i] = t;
  s1[threadIdx.x] = a; s2[threadIdx.x] = q;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) { s1[threadIdx.x] += s1[threadIdx.x + o]; s2[threadIdx.x] += s2[threadIdx.x + o]; }
    __syncthreads();
  }
  if (threadIdx.x == 0) { blockSum[blockIdx.x] = s1[0]; blockSq[blockIdx.x] = s2[0]; }
}

__global__ void walks(int lo, int hi, int *steps, int *where) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Rng r = seed(i + 5000000u);
  int p = 0, k = 0;
  unsigned bits = 0; int left = 0;
  while (k < 4096) {
    if (left == 0) { bits = next(r); left = 32; }
    p += (bits & 1) ? 1 : -1; bits >>= 1; --left; ++k;
    if (p <= lo || p >= hi) break;
  }
  steps[i] = k; where[i] = p;
}

int main() {
  const int nb = 64, nt = 256, n = nb * nt, per = 64, perP = 16;
  unsigned long long *din; float *dbs, *dbq; int *dtries, *dsteps, *dwhere;
  CK(cudaMalloc(&din, 8)); CK(cudaMalloc(&dbs, nb * 4)); CK(cudaMalloc(&dbq, nb * 4));
  CK(cudaMalloc(&dtries, n * 4)); CK(cudaMalloc(&dsteps, n * 4)); CK(cudaMalloc(&dwhere, n * 4));
  CK(cudaMemset(din, 0, 8));
  darts<<<nb, nt>>>(per, din);
  polar<<<nb, nt>>>(perP, dbs, dbq, dtries);
  walks<<<nb, nt>>>(-20, 30, dsteps, dwhere);
  walks<<<nb / 2, nt>>>(-5, 80, dsteps, dwhere);
  CK(cudaGetLastError());
  unsigned long long inside;
  std::vector<float> bs(nb), bq(nb); std::vector<int> tries(n), steps(n), where(n);
  CK(cudaMemcpy(&inside, din, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(bs.data(), dbs, nb * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(bq.data(), dbq, nb * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(tries.data(), dtries, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(steps.data(), dsteps, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(where.data(), dwhere, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long want = 0;
  for (int i = 0; i < n; ++i) {
    Rng r = seed(i);
    for (int k = 0; k < per; ++k) { unsigned v = next(r), x = v & 0x7fff, y = (v >> 15) & 0x7fff; want += x * x + y * y < 0x3fff0001u; }
  }
  bad += inside != want;
  double m1 = 0, m2 = 0; long long tt = 0;
  for (int i = 0; i < n; ++i) {
    Rng r = seed(i + 1000000u);
    int t = 0;
    for (int k = 0; k < perP; ++k) {
      float u, v, w;
      do {
        u = (next(r) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        v = (next(r) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        w = u * u + v * v; ++t;
      } while (w >= 1.0f || w == 0.0f);
    }
    bad += tries[i] != t; tt += t;
  }
  for (int b = 0; b < nb; ++b) { m1 += bs[b]; m2 += bq[b]; }
  double cnt = 2.0 * n * perP;
  m1 /= cnt; m2 /= cnt;
  if (fabs(m1) > 0.02 || fabs(m2 - 1.0) > 0.03) ++bad;
  long long st = 0; int up = 0;
  for (int i = 0; i < n; ++i) {
    int lo = i < n / 2 ? -5 : -20, hi = i < n / 2 ? 80 : 30;
    Rng r = seed(i + 5000000u);
    int p = 0, k = 0; unsigned bits = 0; int left = 0;
    while (k < 4096) {
      if (left == 0) { bits = next(r); left = 32; }
      p += (bits & 1) ? 1 : -1; bits >>= 1; --left; ++k;
      if (p <= lo || p >= hi) break;
    }
    bad += steps[i] != k || where[i] != p; st += k; up += p >= hi;
  }
  printf("montec: pi %.6f (%llu of %d), polar tries %lld, mean %.5f, second moment %.5f, walk steps %lld, %d up\n",
         4.0 * inside / ((double)n * per), inside, n * per, tt, m1, m2, st, up);
  unsigned bits = 0;
  for (int b = 0; b < nb; ++b) { unsigned u; memcpy(&u, &bs[b], 4); bits = bits * 31u + u; memcpy(&u, &bq[b], 4); bits = bits * 31u + u; }
  printf("montec block sums bits %08x\n", bits);
  printf("montec %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
