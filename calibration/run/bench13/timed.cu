// Timing inside kernels that must not change what they compute: each block times its work with
// clock64() and %globaltimer, some warps wait a number of clock cycles in a clock64() loop or
// __nanosleep before their work, a reduction measures its own phases; the times go to arrays the
// host checks only for order (end not before start), never for values. The computed results are
// checked against the host's. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void delayedSquares(const int *in, long long *out, int n, long long *cycles, uint64_t *ns) {
  uint64_t g0 = globaltimer();
  long long c0 = clock64();
  int warp = threadIdx.x >> 5;
  if (warp & 1) {                       // odd warps wait 2000 cycles first
    long long t = clock64();
    while (clock64() - t < 2000) {}
  } else if (warp == 2) {
    __nanosleep(500);
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)in[i] * in[i] + warp;
  __syncthreads();
  if (threadIdx.x == 0) {
    cycles[blockIdx.x] = clock64() - c0;
    ns[blockIdx.x] = globaltimer() - g0;
  }
}

__global__ void timedReduce(const int *in, int n, long long *sums, long long *phase) {
  __shared__ long long s[256];
  long long t0 = clock64();
  long long acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  long long t1 = clock64();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  long long t2 = clock();   // the 32-bit clock, widened
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = s[0];
    phase[2 * blockIdx.x] = t1 - t0;
    phase[2 * blockIdx.x + 1] = t2 - t1;
  }
}

// a time-bounded loop whose trip count is fixed: work repeats until both the count and a minimum
// of 1000 cycles are reached, the result uses only the count
__global__ void atLeast(const float *in, float *out, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long t = clock64();
  float x = in[i];
  int r = 0;
  while (r < reps) { x = __fadd_rn(__fmul_rn(x, 0.999f), 0.5f); ++r; }
  while (clock64() - t < 1000) {}
  out[i] = x;
}

int main() {
  const int N = 1 << 18, B = N / 256, RB = 128;
  std::vector<int> in(N);
  for (int i = 0; i < N; ++i) in[i] = (int)((i * 2654435761u) >> 16) - 32768;
  int *dIn; long long *dOut, *dCyc, *dSums, *dPh; uint64_t *dNs; float *dF, *dG;
  CK(cudaMalloc(&dIn, N * 4)); CK(cudaMalloc(&dOut, N * 8)); CK(cudaMalloc(&dCyc, B * 8)); CK(cudaMalloc(&dNs, B * 8));
  CK(cudaMalloc(&dSums, RB * 8)); CK(cudaMalloc(&dPh, RB * 16)); CK(cudaMalloc(&dF, N * 4)); CK(cudaMalloc(&dG, N * 4));
  CK(cudaMemcpy(dIn, in.data(), N * 4, cudaMemcpyHostToDevice));
  std::vector<float> f(N);
  for (int i = 0; i < N; ++i) f[i] = (i % 1000) * 0.01f;
  CK(cudaMemcpy(dF, f.data(), N * 4, cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e0));
  delayedSquares<<<B, 256>>>(dIn, dOut, N, dCyc, dNs);
  CK(cudaGetLastError());
  timedReduce<<<RB, 256>>>(dIn, N, dSums, dPh);
  CK(cudaGetLastError());
  atLeast<<<N / 256, 256>>>(dF, dG, N, 37);
  CK(cudaGetLastError());
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  std::vector<long long> out(N), cyc(B), sums(RB), ph(2 * RB); std::vector<uint64_t> ns(B); std::vector<float> g(N);
  CK(cudaMemcpy(out.data(), dOut, N * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(cyc.data(), dCyc, B * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ns.data(), dNs, B * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(sums.data(), dSums, RB * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ph.data(), dPh, RB * 16, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(g.data(), dG, N * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += out[i] != (long long)in[i] * in[i] + (i % 256) / 32;
  long long total = 0, htotal = 0;
  for (int b = 0; b < RB; ++b) total += sums[b];
  for (int v : in) htotal += v;
  int bt = 0;
  for (int b = 0; b < B; ++b) bt += cyc[b] < 2000;     // the odd warps waited at least 2000 cycles
  for (int b = 0; b < 2 * RB; ++b) bt += ph[b] < 0;
  int bg = 0;
  for (int i = 0; i < N; ++i) { float x = f[i]; for (int r = 0; r < 37; ++r) x = x * 0.999f + 0.5f; bg += x != g[i]; }
  printf("squares %s\nreduce %s, total %lld\ntimes %s, event time %s\nat least %s\n", bad ? "WRONG" : "ok", total == htotal ? "ok" : "WRONG", total,
         bt ? "WRONG" : "ok", ms >= 0.0f ? "ok" : "WRONG", bg ? "WRONG" : "ok");
  bool pass = !bad && total == htotal && !bt && ms >= 0.0f && !bg;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
