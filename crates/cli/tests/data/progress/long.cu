// A program with one long launch (tests/run_progress.rs):
//   long ITERS BLOCKS
// launch 0 `spin` has BLOCKS blocks of 128 threads iterating a hash ITERS times into `a`; launch 1
// `twice` doubles `a` into `b`; then `b` and an untouched buffer `c` are copied back. It prints
// how many of `b`'s values equal the host's and exits 0 when all do, 1 otherwise.
#include <cstdio>
#include <cstdlib>
#include <vector>

__host__ __device__ unsigned step(unsigned x, unsigned i) {
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  return x + i;
}

__global__ void spin(unsigned *a, int iters) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = id;
  for (int i = 0; i < iters; ++i) x = step(x, (unsigned)i);
  a[id] = x;
}

__global__ void twice(const unsigned *a, unsigned *b) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  b[id] = 2 * a[id];
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: long ITERS BLOCKS\n");
    return 2;
  }
  int iters = atoi(argv[1]), blocks = atoi(argv[2]);
  int n = blocks * 128;
  unsigned *a, *b, *c;
  cudaMalloc(&a, n * sizeof(unsigned));
  cudaMalloc(&b, n * sizeof(unsigned));
  cudaMalloc(&c, n * sizeof(unsigned));
  cudaMemset(c, 0, n * sizeof(unsigned));
  spin<<<blocks, 128>>>(a, iters);
  twice<<<blocks, 128>>>(a, b);
  std::vector<unsigned> hb(n), hc(n);
  cudaMemcpy(hb.data(), b, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(hc.data(), c, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int right = 0;
  for (int id = 0; id < n; ++id) {
    unsigned x = id;
    for (int i = 0; i < iters; ++i) x = step(x, (unsigned)i);
    right += hb[id] == 2 * x;
  }
  printf("%d of %d right\n", right, n);
  return right == n ? 0 : 1;
}
