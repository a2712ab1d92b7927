// fastm's transcend inputs (the first 65,536) under -use_fast_math: each element's sincosf, the
// rsqrtf of x*x + y*y + 1e-12, tanf(x * 0.1), and the products fastm stores, written as raw
// float bits to the file named by the first argument.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cmath>
__global__ void parts(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i], s, c;
  sincosf(x, &s, &c);
  float *o = out + (size_t)i * 8;
  o[0] = s; o[1] = c; o[2] = y * c; o[3] = y * s;
  float q = x * x + y * y + 1e-12f;
  o[4] = q; o[5] = rsqrtf(q); o[6] = y * rsqrtf(q);
  o[7] = tanf(x * 0.1f) + 1.0f / (y + 100.0f) + x * 1e-38f;
}
int main(int argc, char **argv) {
  const int N = 1 << 18, M = 1 << 16;
  std::vector<float> a(N), b(N);
  uint32_t s = 4242;
  for (int i = 0; i < N; ++i) {
    s = s * 1664525u + 1013904223u; a[i] = ((s >> 8) & 0xffff) / 2048.0f - 16.0f + 1.0f / 4096.0f;
    s = s * 1664525u + 1013904223u; b[i] = ((s >> 8) & 0xffff) / 4096.0f - 8.0f;
    if (i % 97 == 0) b[i] = 1e-39f;
    if (i % 89 == 0) a[i] = 1000.0f + i % 1000;
  }
  float *dA, *dB, *dO;
  cudaMalloc(&dA, M * 4); cudaMalloc(&dB, M * 4); cudaMalloc(&dO, (size_t)M * 32);
  cudaMemcpy(dA, a.data(), M * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), M * 4, cudaMemcpyHostToDevice);
  parts<<<M / 128, 128>>>(dA, dB, dO, M);
  std::vector<float> o((size_t)M * 8);
  cudaError_t e = cudaMemcpy(o.data(), dO, (size_t)M * 32, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 2; }
  FILE *f = fopen(argc > 1 ? argv[1] : "fastdump.bin", "wb");
  fwrite(a.data(), 4, M, f); fwrite(b.data(), 4, M, f); fwrite(o.data(), 4, o.size(), f);
  fclose(f);
  printf("written\n");
  return 0;
}
