// A last-block-done reduction (no block waits on another): each block sums its part in shared
// memory, thread 0 stores the block's sum, __threadfence(), then atomicInc on a counter; the
// block that draws gridDim.x - 1 sums the partial sums and resets the counter. Launched three
// times (the counter's reset is used). Integer sums: the result is exact, the host checks it.
#include <cstdio>
#include <cstdlib>

__device__ unsigned done_count;

__global__ void reduce(const int *in, int *partial, long long *total, unsigned n) {
  __shared__ int s[256];
  __shared__ bool last;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned t = atomicInc(&done_count, gridDim.x);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    long long acc = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc += ((volatile int *)partial)[b];
    __shared__ long long t[256];
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

int main() {
  const unsigned sizes[3] = {256 * 40, 256 * 97 + 13, 256 * 3};
  int bad = 0;
  for (int run = 0; run < 3; run++) {
    unsigned n = sizes[run], blocks = (n + 255) / 256;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (unsigned i = 0; i < n; i++) {
      h[i] = (int)((i * 2654435761u + run) % 20001u) - 10000;
      want += h[i];
    }
    int *in, *partial;
    long long *total, got = 0;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&partial, blocks * sizeof(int));
    cudaMalloc(&total, sizeof(long long));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<<<blocks, 256>>>(in, partial, total, n);
    cudaMemcpy(&got, total, sizeof(long long), cudaMemcpyDeviceToHost);
    unsigned left = 1;
    cudaMemcpyFromSymbol(&left, done_count, sizeof(unsigned));
    printf("run %d: %u blocks, sum %lld (expected %lld), counter %u\n", run, blocks, got, want, left);
    bad |= got != want || left != 0;
    cudaFree(in);
    cudaFree(partial);
    cudaFree(total);
    free(h);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
