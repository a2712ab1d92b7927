// Built with -G (debug machine code: every variable in its own place, no inlining, branches as
// written): a byte histogram in shared memory with a switch over classes, a Hillis-Steele block
// scan, a data-dependent Collatz loop with an early exit, and a recursive device function.
// Each result is checked against the host's; checksums are printed. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__device__ int classify(unsigned char c) {
  switch (c >> 5) {
    case 0: return 0;
    case 1: return (c & 1) ? 1 : 2;
    case 2: case 3: return 3;
    case 5: return 4;
    default: return 5 + (c % 3);
  }
}

__global__ void histo(const unsigned char *in, int n, unsigned *bins, unsigned *cls) {
  __shared__ unsigned h[256];
  __shared__ unsigned k[8];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
  if (threadIdx.x < 8) k[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned char c = in[i];
    atomicAdd(&h[c], 1u);
    atomicAdd(&k[classify(c)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (h[i]) atomicAdd(&bins[i], h[i]);
  if (threadIdx.x < 8 && k[threadIdx.x]) atomicAdd(&cls[threadIdx.x], k[threadIdx.x]);
}

__global__ void blockScan(const int *in, int *out, int n) {
  extern __shared__ int s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < blockDim.x; d <<= 1) {
    int v = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[threadIdx.x];
}

__device__ int collatzSteps(uint64_t x, int limit) {
  int steps = 0;
  while (x != 1) {
    if (steps >= limit) break;
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    ++steps;
  }
  return steps;
}

__device__ unsigned gcdRec(unsigned a, unsigned b) { return b == 0 ? a : gcdRec(b, a % b); }

__global__ void numbers(int n, int *steps, unsigned *g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  steps[i] = collatzSteps((uint64_t)i + 1, 300);
  g[i] = gcdRec((unsigned)(i * 7919u + 13u), (unsigned)(i * 104729u % 65521u + 1u));
}

static int hostClassify(unsigned char c) {
  switch (c >> 5) {
    case 0: return 0;
    case 1: return (c & 1) ? 1 : 2;
    case 2: case 3: return 3;
    case 5: return 4;
    default: return 5 + (c % 3);
  }
}
static unsigned hostGcd(unsigned a, unsigned b) { while (b) { unsigned t = a % b; a = b; b = t; } return a; }

int main() {
  const int N = 1 << 20, M = 1 << 16;
  std::vector<unsigned char> bytes(N);
  uint32_t s = 12345;
  for (int i = 0; i < N; ++i) { s = s * 1664525u + 1013904223u; bytes[i] = (unsigned char)((s >> 24) ^ (s >> 13)); }
  std::vector<int> vals(M);
  for (int i = 0; i < M; ++i) { s = s * 1664525u + 1013904223u; vals[i] = (int)(s >> 26) - 16; }
  unsigned char *dB; unsigned *dBins, *dCls; int *dIn, *dOut, *dSteps; unsigned *dG;
  CK(cudaMalloc(&dB, N)); CK(cudaMalloc(&dBins, 256 * 4)); CK(cudaMalloc(&dCls, 8 * 4));
  CK(cudaMalloc(&dIn, M * 4)); CK(cudaMalloc(&dOut, M * 4)); CK(cudaMalloc(&dSteps, M * 4)); CK(cudaMalloc(&dG, M * 4));
  CK(cudaMemcpy(dB, bytes.data(), N, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dIn, vals.data(), M * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dBins, 0, 256 * 4)); CK(cudaMemset(dCls, 0, 8 * 4));
  histo<<<96, 256>>>(dB, N, dBins, dCls);
  CK(cudaGetLastError());
  blockScan<<<M / 256, 256, 256 * sizeof(int)>>>(dIn, dOut, M);
  CK(cudaGetLastError());
  numbers<<<M / 128, 128>>>(M, dSteps, dG);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> bins(256), cls(8), g(M); std::vector<int> out(M), steps(M);
  CK(cudaMemcpy(bins.data(), dBins, 256 * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(cls.data(), dCls, 8 * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(out.data(), dOut, M * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(steps.data(), dSteps, M * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(g.data(), dG, M * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  std::vector<unsigned> hb(256, 0), hc(8, 0);
  for (int i = 0; i < N; ++i) { hb[bytes[i]]++; hc[hostClassify(bytes[i])]++; }
  for (int i = 0; i < 256; ++i) bad += hb[i] != bins[i];
  for (int i = 0; i < 8; ++i) bad += hc[i] != cls[i];
  printf("histogram %s, classes %u %u %u %u %u %u %u %u\n", bad ? "WRONG" : "ok", cls[0], cls[1], cls[2], cls[3], cls[4], cls[5], cls[6], cls[7]);
  int bs = 0; long long scanSum = 0;
  for (int b = 0; b < M / 256; ++b) {
    int acc = 0;
    for (int t = 0; t < 256; ++t) { acc += vals[b * 256 + t]; bs += acc != out[b * 256 + t]; scanSum += out[b * 256 + t]; }
  }
  printf("scan %s, sum %lld\n", bs ? "WRONG" : "ok", scanSum);
  int ns = 0; long long stepSum = 0, gSum = 0;
  for (int i = 0; i < M; ++i) {
    uint64_t x = (uint64_t)i + 1; int k = 0;
    while (x != 1 && k < 300) { x = (x & 1) ? 3 * x + 1 : x >> 1; ++k; }
    ns += k != steps[i];
    ns += hostGcd((unsigned)(i * 7919u + 13u), (unsigned)(i * 104729u % 65521u + 1u)) != g[i];
    stepSum += steps[i]; gSum += g[i];
  }
  printf("numbers %s, steps %lld, gcds %lld\n", ns ? "WRONG" : "ok", stepSum, gSum);
  bool pass = !bad && !bs && !ns;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
