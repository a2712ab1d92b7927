// cudaOccupancyAvailableDynamicSMemPerBlock: the dynamic shared memory a block may use so that
// numBlocks blocks of blockSize threads fit on an SM, for kernels with 0, 4 KB and 40 KB of static
// shared memory, a register-heavy one, and the opt-in attribute set or not. One line per query.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void none(float *o) {
  extern __shared__ float d[];
  d[threadIdx.x] = 1;
  __syncthreads();
  if (o) o[threadIdx.x] = d[0];
}

__global__ void small(float *o) {
  __shared__ float s[1024];
  extern __shared__ float d[];
  s[threadIdx.x] = 1;
  d[threadIdx.x] = 2;
  __syncthreads();
  if (o) o[threadIdx.x] = s[1023 - threadIdx.x] + d[0];
}

__global__ void big(float *o) {
  __shared__ float s[10240];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (o) o[threadIdx.x] = s[10239 - threadIdx.x];
}

__global__ void __launch_bounds__(256, 1) heavy(float *out, int n) {
  float acc[64];
#pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = out ? out[i * n + threadIdx.x] : i;
  float t = 0;
#pragma unroll
  for (int r = 0; r < 8; r++)
#pragma unroll
    for (int i = 0; i < 64; i++) t = t * acc[(i * 7 + r) % 64] + acc[i];
  if (out) out[threadIdx.x] = t;
}

static void q(const char *name, const void *f, int blocks, int threads) {
  size_t s = 12345;
  cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&s, f, blocks, threads);
  cudaGetLastError();
  printf("%s blocks %d threads %d: %s %zu\n", name, blocks, threads, e == cudaSuccess ? "ok" : cudaGetErrorName(e), s);
}

int main() {
  const int blocks[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 24, 32, 33, 64};
  const int threads[] = {32, 128, 256, 1024};
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (const void *f : {(const void *)none, (const void *)small, (const void *)big})
        cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
      printf("opt-in 100 KB\n");
    }
    for (int t : threads)
      for (int b : blocks) {
        q("none", (const void *)none, b, t);
        q("small", (const void *)small, b, t);
        q("big", (const void *)big, b, t);
      }
  }
  for (int b : {1, 2, 3, 4}) q("heavy", (const void *)heavy, b, 256);
  q("none", (const void *)none, 1, 2048);
  q("none", (const void *)none, -1, 128);
  return 0;
}
