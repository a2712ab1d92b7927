// Which shared accesses get extra (contention) wavefronts on the H100: shared loads or stores in a
// loop, with and without global loads in the same loop or in other warps, on one block or many.
#include <cstdio>
#include <cuda_runtime.h>
#define ITERS 64
__global__ void ldsOnly(float *out, const float *in) {
  __shared__ float t[16][17];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  t[ty][tx] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < ITERS; i++) s += t[ty][(tx + i) & 15] * t[(ty + i) & 15][tx];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
__global__ void ldsWithLdg(float *out, const float *in, int n) {
  __shared__ float t[16][17];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  t[ty][tx] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < ITERS; i++)
    s += t[ty][(tx + i) & 15] * t[(ty + i) & 15][tx] + in[(blockIdx.x * 256 + threadIdx.x + i * 4096) % n];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
__global__ void ldsBesideLdgWarps(float *out, const float *in, int n) {
  __shared__ float t[16][17];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  t[ty][tx] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float s = 0;
  if (threadIdx.x < 128) {
    for (int i = 0; i < ITERS; i++) s += t[ty][(tx + i) & 15] * t[(ty + i) & 15][tx];
  } else {
    for (int i = 0; i < ITERS; i++) s += in[(blockIdx.x * 256 + threadIdx.x + i * 4096) % n];
  }
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
__global__ void stsOnly(float *out) {
  __shared__ float t[256];
  for (int i = 0; i < ITERS; i++) { t[threadIdx.x] = (float)i; __syncwarp(); }
  out[blockIdx.x * 256 + threadIdx.x] = t[threadIdx.x ^ 1];
}
__global__ void stsWithLdg(float *out, const float *in, int n) {
  __shared__ float t[256];
  for (int i = 0; i < ITERS; i++) { t[threadIdx.x] = in[(blockIdx.x * 256 + threadIdx.x + i * 4096) % n]; __syncwarp(); }
  out[blockIdx.x * 256 + threadIdx.x] = t[threadIdx.x ^ 1];
}
int main() {
  const int n = 1 << 22;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  for (int blocks : {1, 1056}) {
    for (int r = 0; r < 3; r++) ldsOnly<<<blocks, 256>>>(out, in);
    for (int r = 0; r < 3; r++) ldsWithLdg<<<blocks, 256>>>(out, in, n);
    for (int r = 0; r < 3; r++) ldsBesideLdgWarps<<<blocks, 256>>>(out, in, n);
    for (int r = 0; r < 3; r++) stsOnly<<<blocks, 256>>>(out);
    for (int r = 0; r < 3; r++) stsWithLdg<<<blocks, 256>>>(out, in, n);
  }
  cudaDeviceSynchronize();
  printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
