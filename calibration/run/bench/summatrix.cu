// The sum of two NX x NY float matrices by a 2D grid of 2D blocks (one element per thread), in the
// textbook style, launched with three block shapes and checked against the host each time: a
// memory-bound kernel with one short block per 256-1024 elements and a grid of up to 256K blocks.
//   summatrix [LOG2_NX [LOG2_NY]]   (default 14 14: 16384 x 16384, 1 GiB per matrix)
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void sumMatrix(const float *a, const float *b, float *c, int nx, int ny) {
  unsigned ix = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned iy = threadIdx.y + blockIdx.y * blockDim.y;
  unsigned i = iy * nx + ix;
  if (ix < nx && iy < ny) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int lx = argc > 1 ? atoi(argv[1]) : 14;
  int ly = argc > 2 ? atoi(argv[2]) : lx;
  if (lx < 5 || lx > 15 || ly < 5 || ly > 15) {
    fprintf(stderr, "usage: summatrix [LOG2_NX [LOG2_NY]] (each in 5..15)\n");
    return 2;
  }
  int nx = 1 << lx, ny = 1 << ly;
  size_t n = (size_t)nx * ny, bytes = n * sizeof(float);
  std::vector<float> ha(n), hb(n), hc(n);
  for (size_t i = 0; i < n; ++i) {
    ha[i] = (float)(i % 1000) * 0.5f;
    hb[i] = (float)(i % 777) * 0.25f;
  }
  float *a, *b, *c;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMalloc(&c, bytes);
  cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice);
  const int shapes[3][2] = {{32, 32}, {32, 16}, {16, 16}};
  int bad = 0;
  for (auto &s : shapes) {
    dim3 block(s[0], s[1]);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    cudaMemset(c, 0, bytes);
    sumMatrix<<<grid, block>>>(a, b, c, nx, ny);
    cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += hc[i] != ha[i] + hb[i];
    printf("sumMatrix <<<(%u,%u), (%u,%u)>>>: %zu wrong\n", grid.x, grid.y, block.x, block.y, wrong);
    bad += wrong != 0;
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  printf("summatrix %d x %d: %s\n", nx, ny, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
