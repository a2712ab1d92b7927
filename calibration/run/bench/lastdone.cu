// A last-block-done sum of 2^LOG2_N ints (blocks of 256 threads): each block sums its part in
// shared memory, thread 0 stores the part's sum, __threadfence(), then atomicInc on a counter; the
// block that draws gridDim.x - 1 reads every part's sum through a volatile pointer (a fixed-count
// loop, not a wait) and stores the total. The host checks the total.
//   lastdone [LOG2_N]   (default 24: 16M ints, 65,536 blocks)
#include <cstdio>
#include <cstdlib>

__device__ unsigned done_count;

__global__ void lastDone(const int *in, int *part, long long *total, unsigned n) {
  __shared__ int s[256];
  __shared__ long long t[256];
  __shared__ bool last;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    part[blockIdx.x] = s[0];
    __threadfence();
    last = atomicInc(&done_count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    long long acc = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc += ((volatile int *)part)[b];
    t[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
      long long sum = 0;
      for (unsigned k = 0; k < blockDim.x; k++) sum += t[k];
      *total = sum;
      done_count = 0;
    }
  }
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 24;
  if (lg < 8 || lg > 28) {
    fprintf(stderr, "usage: lastdone [LOG2_N] (8..28)\n");
    return 2;
  }
  unsigned n = 1u << lg, blocks = n / 256;
  int *h = (int *)malloc((size_t)n * sizeof(int));
  long long want = 0, got = 0;
  for (unsigned i = 0; i < n; i++) {
    h[i] = (int)((i * 2654435761u) % 2001u) - 1000;
    want += h[i];
  }
  int *in, *part;
  long long *total;
  cudaMalloc(&in, (size_t)n * sizeof(int));
  cudaMalloc(&part, blocks * sizeof(int));
  cudaMalloc(&total, sizeof(long long));
  cudaMemcpy(in, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  lastDone<<<blocks, 256>>>(in, part, total, n);
  cudaMemcpy(&got, total, sizeof(long long), cudaMemcpyDeviceToHost);
  printf("lastdone: %u blocks, sum %lld (expected %lld): %s\n", blocks, got, want, got == want ? "PASS" : "FAIL");
  cudaFree(in);
  cudaFree(part);
  cudaFree(total);
  free(h);
  return got != want;
}
