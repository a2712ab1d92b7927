// A program that links NVIDIA libraries it never calls (gpu_libraries.rs links fake ones): its own
// kernel runs under warpscope and it prints the result.
#include <cstdio>
__global__ void scale(float *x, float s) { x[threadIdx.x] *= s; }
int main() {
  float h[32], *d;
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(d, 2.0f);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("x[31] = %g\n", h[31]);
  return 0;
}
