// A kernel with a long inner loop per thread: each thread iterates an integer hash ITERS times
// (a compute-bound kernel whose blocks take long), checked against the host.
//   loop [ITERS [BLOCKS]]   (default 20000 iterations, 64 blocks of 256 threads)
#include <cstdio>
#include <cstdlib>
#include <vector>

__host__ __device__ unsigned step(unsigned x, unsigned i) {
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  return x + i;
}

__global__ void spin(unsigned *out, int iters) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = id * 0x9e3779b9u + 1;
  for (int i = 0; i < iters; ++i) x = step(x, (unsigned)i);
  out[id] = x;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 20000;
  int blocks = argc > 2 ? atoi(argv[2]) : 64;
  if (iters < 1 || blocks < 1) {
    fprintf(stderr, "usage: loop [ITERS [BLOCKS]]\n");
    return 2;
  }
  int n = blocks * 256;
  unsigned *d;
  cudaMalloc(&d, n * sizeof(unsigned));
  spin<<<blocks, 256>>>(d, iters);
  std::vector<unsigned> h(n);
  cudaError_t e = cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("loop: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int bad = 0;
  for (int id = 0; id < n; ++id) {
    unsigned x = id * 0x9e3779b9u + 1;
    for (int i = 0; i < iters; ++i) x = step(x, (unsigned)i);
    bad += h[id] != x;
  }
  printf("loop: %d threads x %d iterations, %d wrong: %s\n", n, iters, bad, bad == 0 ? "PASSED" : "FAILED");
  cudaFree(d);
  return bad == 0 ? 0 : 1;
}
