// A sum of N ints by a shared-memory tree reduction in the textbook style (each block adds two
// elements per thread as it loads, then halves the active threads with a barrier at each step;
// the partial sums are reduced by the same kernel until one is left), checked against the host.
//   reduce [LOG2_N]   (default 24: 16M ints)
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int BLOCK = 256;

__global__ void reduce(const int *in, int *out, int n) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (2 * BLOCK) + t;
  int v = 0;
  if (i < n) v = in[i];
  if (i + BLOCK < n) v += in[i + BLOCK];
  s[t] = v;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 24;
  if (lg < 10 || lg > 28) {
    fprintf(stderr, "usage: reduce [LOG2_N in 10..28]\n");
    return 2;
  }
  int n = 1 << lg;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (int)((i * 2654435761u) >> 24) - 128;
    want += h[i];
  }
  int *a, *b;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMemcpy(a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int len = n;
  while (len > 1) {
    int blocks = (len + 2 * BLOCK - 1) / (2 * BLOCK);
    reduce<<<blocks, BLOCK>>>(a, b, len);
    int *t = a;
    a = b;
    b = t;
    len = blocks;
  }
  int got = 0;
  cudaError_t e = cudaMemcpy(&got, a, sizeof(int), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("reduce: %s\n", cudaGetErrorString(e));
    return 1;
  }
  bool ok = got == (int)want;
  printf("reduce: n = %d, sum %d, expected %d: %s\n", n, got, (int)want, ok ? "PASSED" : "FAILED");
  cudaFree(a);
  cudaFree(b);
  return ok ? 0 : 1;
}
