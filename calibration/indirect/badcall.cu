// A call through a register that holds no function's address: what the GPU reports.
#include <cstdio>
typedef int (*op_t)(int);
__device__ __noinline__ int twice(int a) { return 2 * a; }
__device__ op_t table[2] = {twice, twice};

// Lane 0 calls table[which]; which = 2 reads past the table (a null pointer in memory after it).
__global__ void bad_call(const unsigned long long *fp, int *out) {
  op_t f = reinterpret_cast<op_t>(fp[threadIdx.x]);
  out[threadIdx.x] = f(threadIdx.x);
}

int main() {
  unsigned long long h[32];
  op_t good;
  cudaMemcpyFromSymbol(&good, table, sizeof good);
  for (int i = 0; i < 32; i++) h[i] = (unsigned long long)good;
  h[5] = 0x1234; // no function there
  unsigned long long *fp;
  int *out;
  cudaMalloc(&fp, sizeof h);
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemcpy(fp, h, sizeof h, cudaMemcpyHostToDevice);
  bad_call<<<1, 32>>>(fp, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("good pointer %#llx; launch: %s (%s)\n", (unsigned long long)good, cudaGetErrorName(e), cudaGetErrorString(e));
  return 0;
}
