// Which accesses past a cudaMalloc'd buffer's end fault on the GPU, and where consecutive
// allocations lie. Usage: oob layout | oob probe SIZE OFFSET MODE(r|w) [NPRE]
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void touch(char *p, long long off, int write, int *out) {
  if (write) { p[off] = 7; out[0] = 1; }
  else out[0] = p[off];
}
int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "layout")) {
    size_t sizes[] = {4, 4, 100, 256, 257, 512, 1000, 4096, 65536, 1 << 20, (1 << 20) + 4, 2 << 20, 3 << 20, 64 << 20, 4, 4};
    char *prev = 0; size_t prevs = 0;
    for (size_t s : sizes) {
      char *p; cudaError_t e = cudaMalloc(&p, s);
      printf("size %zu -> %p (err %d) delta_from_prev_end %lld\n", s, p, (int)e,
             prev ? (long long)(p - (prev + prevs)) : 0LL);
      prev = p; prevs = s;
    }
    return 0;
  }
  if (argc < 5) return 2;
  size_t size = strtoull(argv[2], 0, 0);
  long long off = strtoll(argv[3], 0, 0);
  int write = argv[4][0] == 'w';
  int npre = argc > 5 ? atoi(argv[5]) : 0;
  for (int i = 0; i < npre; i++) { char *q; cudaMalloc(&q, 4096); }
  char *p; int *out;
  cudaMalloc(&p, size); cudaMalloc(&out, 4);
  cudaMemset(p, 0, size);
  touch<<<1, 1>>>(p, (long long)size + off, write, out);
  cudaError_t e = cudaDeviceSynchronize();
  int v = -1; if (e == cudaSuccess) cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost);
  printf("size %zu off %+lld %s -> %s (%d) value %d base %p\n", size, off, write ? "w" : "r",
         cudaGetErrorName(e), (int)e, v, p);
  return 0;
}
