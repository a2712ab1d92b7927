// Separate compilation (-rdc=true) over three translation units, device-linked by nvcc:
// kernels here call device functions of rdc_ops.cu (which call noteCall of rdc_state.cu) and read
// and write extern __device__ variables and an extern __constant__ table defined in
// rdc_state.cu; the host sets and reads them through cudaMemcpyToSymbol/FromSymbol. Checked
// against the host's computation. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

extern __device__ unsigned int g_calls;
extern __device__ float g_bias[16];
extern __constant__ float c_scale[4];
extern __device__ uint64_t g_hist[8];
extern __device__ float opApply(int k, float x);
extern __device__ int digitSum(unsigned v);
extern __device__ void warpAccumulate(float *dst, float v);

__global__ void apply(const float *in, const int *ops, float *out, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    v = opApply(ops[i], in[i]);
    if (ops[i] % 5 == 0) v = opApply(ops[i] + 1, v);   // a second call on some lanes
    out[i] = v;
  }
  warpAccumulate(total, v);
}

__global__ void digits(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = digitSum((unsigned)i * 2654435761u);
}

static float hostOp(int k, float x, const float *bias) {
  const float sc[4] = {0.5f, 1.25f, -2.0f, 3.0f};
  float b = bias[k & 15];
  switch (k & 3) {
    case 0: return x * sc[0] + b;
    case 1: return fmaxf(x, b) * sc[1];
    case 2: return (x - b) * sc[2];
    default: return x * x * sc[3] - b;
  }
}

int main() {
  const int N = 1 << 18;
  std::vector<float> in(N), bias(16);
  std::vector<int> ops(N);
  uint32_t s = 777;
  for (int i = 0; i < N; ++i) {
    s = s * 1664525u + 1013904223u; in[i] = ((s >> 8) & 0xffff) / 4096.0f - 8.0f;
    s = s * 1664525u + 1013904223u; ops[i] = (s >> 20) & 63;
  }
  for (int i = 0; i < 16; ++i) bias[i] = 0.25f * i - 1.5f;
  CK(cudaMemcpyToSymbol(g_bias, bias.data(), 16 * sizeof(float)));
  unsigned zero = 0;
  CK(cudaMemcpyToSymbol(g_calls, &zero, sizeof zero));
  float sc[4];
  CK(cudaMemcpyFromSymbol(sc, c_scale, sizeof sc));
  float *dIn, *dOut, *dTot; int *dOps, *dDig;
  CK(cudaMalloc(&dIn, N * 4)); CK(cudaMalloc(&dOut, N * 4)); CK(cudaMalloc(&dOps, N * 4));
  CK(cudaMalloc(&dTot, 4)); CK(cudaMalloc(&dDig, N * 4));
  CK(cudaMemcpy(dIn, in.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dOps, ops.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dTot, 0, 4));
  apply<<<N / 256, 256>>>(dIn, dOps, dOut, dTot, N);
  CK(cudaGetLastError());
  digits<<<N / 128, 128>>>(dDig, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned calls; uint64_t hist[8]; float total;
  CK(cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
  CK(cudaMemcpyFromSymbol(hist, g_hist, sizeof hist));
  CK(cudaMemcpy(&total, dTot, 4, cudaMemcpyDeviceToHost));
  std::vector<float> out(N); std::vector<int> dig(N);
  CK(cudaMemcpy(out.data(), dOut, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(dig.data(), dDig, N * 4, cudaMemcpyDeviceToHost));
  unsigned hCalls = 0; uint64_t hHist[8] = {0}; double hTotal = 0; int bad = 0;
  uint32_t bits = 0;
  for (int i = 0; i < N; ++i) {
    float v = hostOp(ops[i], in[i], bias.data()); hCalls++; hHist[ops[i] & 7]++;
    if (ops[i] % 5 == 0) { v = hostOp(ops[i] + 1, v, bias.data()); hCalls++; hHist[(ops[i] + 1) & 7]++; }
    if (fabsf(v - out[i]) > 1e-4f * (1.0f + fabsf(v))) bad++;
    hTotal += v;
    uint32_t u; memcpy(&u, &out[i], 4); bits = bits * 31u + u;
  }
  int badHist = 0;
  for (int k = 0; k < 8; ++k) badHist += hHist[k] != hist[k];
  int badDig = 0; long long digSum = 0;
  for (int i = 0; i < N; ++i) {
    unsigned v = (unsigned)i * 2654435761u; int d = 0;
    do { d += v % 10; v /= 10; } while (v);
    badDig += d != dig[i]; digSum += dig[i];
  }
  bool totalOk = fabs(hTotal - total) <= 1e-3 * (1.0 + fabs(hTotal));
  printf("scale %g %g %g %g\n", sc[0], sc[1], sc[2], sc[3]);
  printf("apply %s, calls %u (host %u), hist %s, bits %08x\n", bad ? "WRONG" : "ok", calls, hCalls, badHist ? "WRONG" : "ok", bits);
  printf("total %s\n", totalOk ? "ok" : "WRONG");
  printf("digits %s, sum %lld\n", badDig ? "WRONG" : "ok", digSum);
  bool pass = !bad && calls == hCalls && !badHist && totalOk && !badDig;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
