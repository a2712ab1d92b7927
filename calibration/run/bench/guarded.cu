// Grids that overhang their data behind bounds guards, and a grid-stride loop: the launch shapes
// the disjointness proof (crates/emu/src/disjoint.rs) follows through guards and loops.
//   guarded [N [STRIDE_BLOCKS]]: N x N floats (default 6000), the loop over 1024 blocks by default
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void add2d(const float *a, const float *b, float *c, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) c[iy * nx + ix] = a[iy * nx + ix] + b[iy * nx + ix];
}

__global__ void scale(const float *x, float *y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = s * x[i];
}

__global__ void saxpy(int n, float s, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = s * x[i] + y[i];
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? atoi(argv[1]) : 6000;
  int sb = argc > 2 ? atoi(argv[2]) : 1024;
  if (nx < 1 || nx > 20000 || sb < 1) {
    fprintf(stderr, "usage: guarded [N [STRIDE_BLOCKS]] (N in 1..20000)\n");
    return 2;
  }
  int n = nx * nx;
  size_t bytes = size_t(n) * sizeof(float);
  std::vector<float> ha(n), hb(n), hc(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = float(i % 1000);
    hb[i] = float(i % 7);
  }
  float *a, *b, *c;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMalloc(&c, bytes);
  cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 32), grid((nx + 31) / 32, (nx + 31) / 32);
  add2d<<<grid, block>>>(a, b, c, nx, nx);
  scale<<<(n + 255) / 256, 256>>>(c, c, 2.f, n);
  saxpy<<<sb, 256>>>(n, 3.f, a, c);
  cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (int i = 0; i < n; ++i)
    if (hc[i] != 2.f * (ha[i] + hb[i]) + 3.f * ha[i]) ++wrong;
  printf("guarded %d x %d: %s (%zu wrong)\n", nx, nx, wrong ? "FAIL" : "PASS", wrong);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return wrong != 0;
}
