// Launches with dynamic shared memory over 48 KB, with and without
// cudaFuncAttributeMaxDynamicSharedMemorySize, and what cudaFuncGetAttributes and
// cudaFuncSetAttribute answer around the limits. One line per step: its status and values.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dyn(int *out) {
  extern __shared__ int d[];
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = d[blockDim.x - 1];
}

__global__ void stat(int *out) {
  __shared__ int s[4096];
  extern __shared__ int d[];
  s[threadIdx.x] = threadIdx.x;
  d[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[blockDim.x - 1] + d[0];
}

static const char *nm(cudaError_t e) { return e == cudaSuccess ? "ok" : cudaGetErrorName(e); }

static void attrs(const char *k, const void *f) {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, f);
  printf("attrs %s: %s static %zu maxDynamic %d\n", k, nm(e), a.sharedSizeBytes, a.maxDynamicSharedSizeBytes);
}

static void launch(const char *k, void (*f)(int *), size_t smem, int *out) {
  f<<<2, 128, smem>>>(out);
  cudaError_t e = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  int h[2] = {-1, -1};
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemset(out, 0xff, sizeof h);
  printf("launch %s smem %zu: %s sync %s out %d %d\n", k, smem, nm(e), nm(s), h[0], h[1]);
}

static void set(const char *k, const void *f, int v) {
  cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, v);
  cudaGetLastError();
  printf("set %s %d: %s\n", k, v, nm(e));
}

int main() {
  int *out;
  cudaMalloc(&out, 8);
  cudaMemset(out, 0xff, 8);
  attrs("dyn", (const void *)dyn);
  attrs("stat", (const void *)stat);
  for (size_t s : {(size_t)512, (size_t)49152, (size_t)49153, (size_t)65536}) launch("dyn", dyn, s, out);
  for (size_t s : {(size_t)32768, (size_t)32769, (size_t)49152}) launch("stat", stat, s, out);
  set("dyn", (const void *)dyn, 65536);
  attrs("dyn", (const void *)dyn);
  for (size_t s : {(size_t)65536, (size_t)65537, (size_t)100000}) launch("dyn", dyn, s, out);
  set("dyn", (const void *)dyn, 232448);
  set("dyn", (const void *)dyn, 232449);
  set("dyn", (const void *)dyn, -1);
  attrs("dyn", (const void *)dyn);
  launch("dyn", dyn, 232448, out);
  launch("dyn", dyn, 232449, out);
  set("stat", (const void *)stat, 232448 - 16384);
  set("stat", (const void *)stat, 232448 - 16383);
  attrs("stat", (const void *)stat);
  launch("stat", stat, 232448 - 16384, out);
  set("dyn", (const void *)dyn, 1000);
  attrs("dyn", (const void *)dyn);
  launch("dyn", dyn, 512, out);
  launch("dyn", dyn, 1001, out);
  launch("dyn", dyn, 1000, out);
  launch("dyn", dyn, 40000, out);
  return 0;
}
