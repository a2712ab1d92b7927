// cudaHostGetFlags of pinned allocations made with different cudaHostAlloc flags, at their start
// and inside them.
#include <cstdio>

int main() {
  const unsigned asked[4] = {cudaHostAllocMapped | cudaHostAllocPortable, cudaHostAllocMapped,
                             cudaHostAllocMapped | cudaHostAllocWriteCombined, cudaHostAllocDefault};
  for (int i = 0; i < 4; i++) {
    char *p;
    cudaHostAlloc(&p, 4096, asked[i]);
    unsigned start = 99, inside = 99;
    cudaHostGetFlags(&start, p);
    cudaHostGetFlags(&inside, p + 100);
    printf("asked %u got %u inside %u\n", asked[i], start, inside);
    cudaFreeHost(p);
  }
  return 0;
}
