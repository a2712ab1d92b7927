// Stencils whose reads clamp at the image's edges (min/max of the neighbour's index) and write one
// element a thread: the launch shape the disjointness proof (crates/emu/src/disjoint.rs) follows
// through bounded reads of a buffer no block writes.
//   clamped [N [STEPS]]: an N x N float image (default 2048), STEPS blur/heat steps (default 2)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

// a 3x3 box blur clamped at the edges
__global__ void blur3(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
      s += in[yy * w + xx];
    }
  out[y * w + x] = s * (1.f / 9.f);
}

// one explicit heat step, neighbours clamped
__global__ void heat(const float *in, float *out, int w, int h, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int xl = max(x - 1, 0), xr = min(x + 1, w - 1), yu = max(y - 1, 0), yd = min(y + 1, h - 1);
  float c = in[y * w + x];
  out[y * w + x] = c + k * (in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x] - 4.f * c);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048;
  int steps = argc > 2 ? atoi(argv[2]) : 2;
  if (n < 2 || n > 16384 || steps < 1 || steps > 100) {
    fprintf(stderr, "usage: clamped [N [STEPS]] (N in 2..16384, STEPS in 1..100)\n");
    return 2;
  }
  size_t bytes = (size_t)n * n * sizeof(float);
  std::vector<float> h(n * (size_t)n);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (float)((i * 2654435761u >> 20) & 255);
  float *a, *b;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice);
  dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
  for (int s = 0; s < steps; ++s) {
    blur3<<<grd, blk>>>(a, b, n, n);
    heat<<<grd, blk>>>(b, a, n, n, 0.2f);
  }
  cudaMemcpy(h.data(), a, bytes, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (size_t i = 0; i < h.size(); ++i) sum += h[i] * (double)(1 + i % 7);
  printf("clamped %d x %d, %d steps: %.6e\n", n, n, steps, sum);
  cudaFree(a);
  cudaFree(b);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
