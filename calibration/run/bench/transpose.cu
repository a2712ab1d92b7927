// A matrix transpose through 32x32 shared tiles padded to 33 columns (no bank conflicts), blocks
// of 32x8 threads each moving four rows, in the textbook style; checked against the host.
//   transpose [N]   (default 4096: a 4096x4096 float matrix; N a multiple of 32)
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  if (n < TILE || n % TILE != 0 || n > 16384) {
    fprintf(stderr, "usage: transpose [N, a multiple of 32 up to 16384]\n");
    return 2;
  }
  size_t count = (size_t)n * n;
  std::vector<float> h(count), t(count);
  for (size_t i = 0; i < count; ++i) h[i] = (float)(i % 1000003);
  float *in, *out;
  cudaMalloc(&in, count * sizeof(float));
  cudaMalloc(&out, count * sizeof(float));
  cudaMemcpy(in, h.data(), count * sizeof(float), cudaMemcpyHostToDevice);
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transpose<<<grid, block>>>(out, in, n);
  cudaError_t e = cudaMemcpy(t.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("transpose: %s\n", cudaGetErrorString(e));
    return 1;
  }
  size_t bad = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) bad += t[(size_t)x * n + y] != h[(size_t)y * n + x];
  printf("transpose: %dx%d, %zu wrong: %s\n", n, n, bad, bad == 0 ? "PASSED" : "FAILED");
  cudaFree(in);
  cudaFree(out);
  return bad == 0 ? 0 : 1;
}
