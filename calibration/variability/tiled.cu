// Which launches of a 16x16 tiled matrix product show shared load wavefronts above the request's
// own count on the H100: size, input values, stream.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
template <int BS> __global__ void mm(float *C, const float *A, const float *B, int wA, int wB) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int aBegin = wA * BS * blockIdx.y, aEnd = aBegin + wA - 1, aStep = BS;
  int bBegin = BS * blockIdx.x, bStep = BS * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    As[threadIdx.y][threadIdx.x] = A[a + wA * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + wB * threadIdx.y + threadIdx.x];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k) Csub += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  int c = wB * BS * blockIdx.y + BS * blockIdx.x;
  C[c + wB * threadIdx.y + threadIdx.x] = Csub;
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]);            // matrix size
  int constant = atoi(argv[2]);     // 1: constant inputs
  int stream = atoi(argv[3]);       // 1: a created stream
  size_t bytes = (size_t)n * n * sizeof(float);
  float *h = (float *)malloc(bytes);
  for (int i = 0; i < n * n; i++) h[i] = constant ? 1.0f : (float)(i % 13) * 0.5f;
  float *A, *B, *C;
  cudaMalloc(&A, bytes); cudaMalloc(&B, bytes); cudaMalloc(&C, bytes);
  cudaMemcpy(A, h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(B, h, bytes, cudaMemcpyHostToDevice);
  cudaStream_t s = 0;
  if (stream) cudaStreamCreate(&s);
  dim3 t(16, 16), g(n / 16, n / 16);
  for (int r = 0; r < 3; r++) mm<16><<<g, t, 0, s>>>(C, A, B, n, n);
  cudaDeviceSynchronize();
  printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
