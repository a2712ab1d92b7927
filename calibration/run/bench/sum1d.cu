// sum1d: the sum of two NX x NY float matrices by a 1-D grid, each thread walking one column down
// the rows (the CUDA book's sumMatrixOnGPU1D: NY iterations per thread, ptxas unrolls the loop
// and moves the three pointers by NX floats per row). Checked against the host.
//   sum1d [LOG2_NX [LOG2_NY [BLOCK]]]   (default 14 14 32: the book's 16384 x 16384, 1 GiB per matrix)
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void sumMatrixOnGPU1D(float *A, float *B, float *C, int nx, int ny) {
  unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
  if (ix < nx)
    for (int iy = 0; iy < ny; iy++) {
      int idx = iy * nx + ix;
      C[idx] = A[idx] + B[idx];
    }
}

int main(int argc, char **argv) {
  int lx = argc > 1 ? atoi(argv[1]) : 14;
  int ly = argc > 2 ? atoi(argv[2]) : lx;
  int bx = argc > 3 ? atoi(argv[3]) : 32;
  if (lx < 5 || lx > 15 || ly < 0 || ly > 15 || bx < 1 || bx > 1024) {
    fprintf(stderr, "usage: sum1d [LOG2_NX [LOG2_NY [BLOCK]]] (5..15, 0..15, 1..1024)\n");
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
  dim3 block(bx), grid((nx + bx - 1) / bx);
  sumMatrixOnGPU1D<<<grid, block>>>(a, b, c, nx, ny);
  cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += hc[i] != ha[i] + hb[i];
  printf("sumMatrixOnGPU1D %d x %d <<<%u, %u>>>: %zu wrong\n", nx, ny, grid.x, block.x, wrong);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return wrong != 0;
}
