// Recursive device functions (each kept out of line by __noinline__); recursion.ptx is
// `nvcc -arch=sm_90 -O2 --ptx -o recursion.ptx recursion.cu` (CUDA 13 wheels).
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ bool isOdd(unsigned n);
__device__ __noinline__ bool isEven(unsigned n) { return n == 0 ? true : isOdd(n - 1); }
__device__ __noinline__ bool isOdd(unsigned n) { return n == 0 ? false : isEven(n - 1); }

// sum of p[lo, hi) by halves
__device__ __noinline__ long long rsum(const int* p, int lo, int hi) {
  if (hi - lo == 1) return p[lo];
  int mid = (lo + hi) / 2;
  return rsum(p, lo, mid) + rsum(p, mid, hi);
}

// a chain of depth n that no loop replaces
__device__ __noinline__ unsigned chain(unsigned n) {
  if (n == 0) return 7;
  return (chain(n - 1) * 2654435761u) ^ n;
}

__global__ void recur(const int* in, int* out, long long* sums, unsigned* chains, unsigned depth) {
  int i = threadIdx.x;
  out[i] = fib(i % 13) * 2 + (isEven(in[i]) ? 1 : 0);
  sums[i] = rsum(in, i, i + 1 + i % 9);
  chains[i] = chain(i == 5 ? depth : i);
}
