// calls: kernels calling device functions that ptxas keeps as real calls (calls_lib.cu), built
// -rdc=true (two units), -G -rdc=true, and -G as one unit (callsg.cu includes calls_lib.cu).
// Each kernel's result is checked against the host's computation. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

#ifndef CALLS_ONE_UNIT
extern __device__ int depthSum(int n);
extern __device__ int stepDiv(int x);
extern __device__ int (*opTable[2])(int);
#endif

// recursion with a per-lane depth
__global__ void recurse(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = depthSum((i * 7) % 13);
}

// a callee with a divergent branch, called once per thread
__global__ void divergent(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = stepDiv(i * 5 + 3);
}

// the same callee called from both sides of a branch
__global__ void bothSides(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v;
  if ((i % 3) == 0) v = stepDiv(i) + 1;
  else v = stepDiv(i + 11) - 1;
  out[i] = v;
}

// a function pointer from a table (.callprototype): the lanes choose apart
__global__ void pointers(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = opTable[(i >> 2) & 1](i);
}

static int hDepth(int n) { return n <= 0 ? 0 : n + hDepth(n - 1); }
static int hStep(int x) {
  int r = 0;
  if (x & 1) { for (int k = 0; k < (x & 7); ++k) r += k * x; } else { r = x / 3; }
  return r;
}

int main() {
  const int N = 1 << 14;
  int *d;
  CK(cudaMalloc(&d, N * 4));
  std::vector<int> h(N);
  int bad = 0;
  recurse<<<N / 128, 128>>>(d, N);
  CK(cudaMemcpy(h.data(), d, N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) bad += h[i] != hDepth((i * 7) % 13);
  divergent<<<N / 128, 128>>>(d, N);
  CK(cudaMemcpy(h.data(), d, N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) bad += h[i] != hStep(i * 5 + 3);
  bothSides<<<N / 128, 128>>>(d, N);
  CK(cudaMemcpy(h.data(), d, N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) bad += h[i] != ((i % 3) == 0 ? hStep(i) + 1 : hStep(i + 11) - 1);
  pointers<<<N / 128, 128>>>(d, N);
  CK(cudaMemcpy(h.data(), d, N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) bad += h[i] != (((i >> 2) & 1) ? i * i - (i & 5) : 2 * i + 1);
  CK(cudaDeviceSynchronize());
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
