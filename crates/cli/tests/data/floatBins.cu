// Float sums made by atomicAdd pick bins: the bin a sum selects depends on the sum's last bits,
// which follow the order the GPU ran the adds, so what is counted or written at that bin is too.
// pickBin counts into a histogram at the bin (an integer atomic at a sum-dependent address),
// markBin stores a flag at it (a plain store); later launches read them: one branches on the
// counts, one on the flags, one only scales the counts into floats, one reads counts an
// independent histogram made (the same in any order).
#include <cstdio>
#define N 4096
#define B 16
__global__ void sumF(float *s, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&s[i & 63], x[i]);
}
__global__ void pickBin(const float *s, int *hist, int *plain, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&hist[(int)(s[i & 63] * 3.0f) & (B - 1)], 1);
  atomicAdd(&plain[(int)(x[i] * 15.0f) & (B - 1)], 1);
}
__global__ void markBin(const float *s, int *flag) {
  int i = threadIdx.x;
  if (i < 6) flag[(int)(s[i] * 5.0f) & (B - 1)] = 1;
}
__global__ void useHist(const int *hist, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (hist[i & (B - 1)] > (i & 511)) out[i] = i;
}
__global__ void useFlags(const int *flag, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag[i & (B - 1)]) out[i] += 3;
}
__global__ void copyHist(const int *hist, float *dst) {
  int i = threadIdx.x;
  if (i < B) dst[i] = hist[i] * 0.5f;
}
__global__ void usePlain(const int *plain, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (plain[i & (B - 1)] > (i & 511)) out[i] -= 1;
}
int main() {
  float *x, *s; int *hist, *plain, *flag, *out; float *dst;
  cudaMallocManaged(&x, N * 4); cudaMalloc(&s, 64 * 4);
  cudaMalloc(&hist, B * 4); cudaMalloc(&plain, B * 4); cudaMalloc(&flag, B * 4);
  cudaMalloc(&out, N * 4); cudaMalloc(&dst, B * 4);
  for (int i = 0; i < N; i++) x[i] = (float)((i * 37) % 101) / 97.0f;
  cudaMemset(s, 0, 64 * 4); cudaMemset(hist, 0, B * 4); cudaMemset(plain, 0, B * 4);
  cudaMemset(flag, 0, B * 4); cudaMemset(out, 0, N * 4);
  sumF<<<N / 256, 256>>>(s, x);
  pickBin<<<N / 256, 256>>>(s, hist, plain, x);
  markBin<<<1, 64>>>(s, flag);
  useHist<<<N / 256, 256>>>(hist, out);
  useFlags<<<N / 256, 256>>>(flag, out);
  copyHist<<<1, 32>>>(hist, dst);
  usePlain<<<N / 256, 256>>>(plain, out);
  int h[N], hh[B], hf[B];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, flag, sizeof hf, cudaMemcpyDeviceToHost);
  long long t = 0; for (int i = 0; i < N; i++) t += h[i];
  int bins = 0, flags = 0; for (int b = 0; b < B; b++) { bins += hh[b] > 0; flags += hf[b]; }
  printf("bins %d flags %d total %lld\n", bins, flags, t);
  return 0;
}
