// A plain launch (<<<>>>, not cooperative) whose blocks wait on each other through global memory:
// a grid barrier made by hand, used twice per kernel, in three flavours of its wait:
//   fenced:  __threadfence(), atomicAdd on a counter, a spin on a volatile read of it, a fence;
//   atomic:  no fence, the spin polls the counter with atomicOr(count, 0);
//   relaxed: no fence, the spin polls with ld.relaxed.gpu (inline PTX).
// Each block writes its part, waits for all, reads other blocks' parts, waits again, and block 0
// adds the counter (2 x gridDim.x by then). The host checks every value: "ok ..." and exit 0, or
// the first difference and exit 1.
// With the argument "big" the grid has more blocks of 1024 threads than an H200 holds at once
// (2 per SM x 132 SMs = 264): the blocks that started wait for blocks that cannot start, and
// the GPU never finishes the launch.
#include <cstdio>
#include <cstdlib>
#include <cstring>

enum Flavour { FENCED, ATOMIC, RELAXED };

template <int F>
__device__ unsigned poll(unsigned *count) {
  if (F == FENCED) return *(volatile unsigned *)count;
  if (F == ATOMIC) return atomicOr(count, 0u);
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(count) : "memory");
  return v;
}

template <int F>
__device__ void wait_all(unsigned *count, unsigned goal) {
  __syncthreads();
  if (threadIdx.x == 0) {
    if (F == FENCED) __threadfence();
    atomicAdd(count, 1u);
    while (poll<F>(count) < goal) {
    }
    if (F == FENCED) __threadfence();
  }
  __syncthreads();
}

template <int F>
__global__ void exchange(const int *in, int *mid, int *out, unsigned *count) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  mid[i] = in[i] * 5 - 3;
  wait_all<F>(count, gridDim.x);
  // two elements of other blocks: the next block's, shifted, and one half the grid away
  unsigned a = (i + blockDim.x + 3) % n, b = (i + n / 2 + 1) % n;
  out[i] = mid[a] - 2 * mid[b];
  wait_all<F>(count, 2 * gridDim.x);
  if (i == 0) out[0] += (int)poll<F>(count);
}

static int check(const char *name, const int *h, const int *r, unsigned blocks, unsigned threads) {
  unsigned n = blocks * threads;
  for (unsigned i = 0; i < n; i++) {
    unsigned a = (i + threads + 3) % n, b = (i + n / 2 + 1) % n;
    int want = (h[a] * 5 - 3) - 2 * (h[b] * 5 - 3) + (i == 0 ? (int)(2 * blocks) : 0);
    if (r[i] != want) {
      printf("%s: out[%u] = %d, expected %d\n", name, i, r[i], want);
      return 1;
    }
  }
  long long sum = 0;
  for (unsigned i = 0; i < n; i++) sum += r[i];
  printf("ok %s: %u blocks of %u threads, out[0] = %d, sum %lld\n", name, blocks, threads, r[0], sum);
  return 0;
}

template <int F>
static int one(const char *name, unsigned blocks, unsigned threads) {
  unsigned n = blocks * threads;
  int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
  for (unsigned i = 0; i < n; i++) h[i] = (int)((i * 2246822519u + 7u) % 2001u) - 1000;
  int *in, *mid, *out;
  unsigned *count;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&mid, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&count, sizeof(unsigned));
  cudaMemset(count, 0, sizeof(unsigned));
  cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  exchange<F><<<blocks, threads>>>(in, mid, out, count);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s: launch failed: %s\n", name, cudaGetErrorString(e));
    return 2;
  }
  cudaMemcpy(r, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = check(name, h, r, blocks, threads);
  cudaFree(in);
  cudaFree(mid);
  cudaFree(out);
  cudaFree(count);
  free(h);
  free(r);
  return bad;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "big") == 0) {
    int per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, exchange<FENCED>, 1024, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("big: 300 blocks of 1024 threads, %d resident at once (%d per SM, %d SMs)\n", per_sm * sms, per_sm, sms);
    fflush(stdout);
    return one<FENCED>("big", 300, 1024);
  }
  int bad = one<FENCED>("fenced", 8, 128);
  bad |= one<ATOMIC>("atomic", 12, 96);
  bad |= one<RELAXED>("relaxed", 6, 256);
  bad |= one<FENCED>("fenced-wide", 132, 64);
  return bad;
}
