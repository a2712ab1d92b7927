// Recursion on the GPU: branch and global-memory counters of recursive device functions, for
// warpscope's out-of-line bodies and the machine-code flow's calls (calibration/recursion/).
//   uniformTree: every lane of a warp evaluates the same tree to the same depth (the lanes
//                recurse together; the depth differs between warps)
//   uniformChain: a chain whose depth is the block's, each level loading and storing global
//                memory
//   laneFib:     Fibonacci of lane % 13: each lane recurses to its own depth
//   laneTree:    the tree's depth from the lane's data (2 + in[i] % 4)
// Prints a checksum of every output, checked against the host.
#include <cstdio>
#include <vector>

__device__ __noinline__ int evalTree(int k, int depth, int d) {
  if (depth == d) return (k * 7) % 13 - 6;
  int l = evalTree(2 * k + 1, depth + 1, d), r = evalTree(2 * k + 2, depth + 1, d);
  return k % 3 == 0 ? l + r : k % 3 == 1 ? l - r : (l > r ? l : r);
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned chain(const unsigned* in, unsigned* out, unsigned n, int i) {
  if (n == 0) return in[i];
  unsigned v = (chain(in, out, n - 1, i) * 2654435761u) ^ n;
  out[i * 16 + n % 16] = v;
  return v;
}

__global__ void uniformTree(int* out) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  out[blockIdx.x * blockDim.x + threadIdx.x] = evalTree(w % 7, 0, 1 + w % 5) + threadIdx.x % 32;
}

__global__ void uniformChain(const unsigned* in, unsigned* out, unsigned* last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  last[i] = chain(in, out, 3 + blockIdx.x % 6, i);
}

__global__ void laneFib(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fib(i % 13);
}

__global__ void laneTree(const unsigned* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = evalTree(i % 5, 0, 2 + in[i] % 4);
}

static int hTree(int k, int depth, int d) {
  if (depth == d) return (k * 7) % 13 - 6;
  int l = hTree(2 * k + 1, depth + 1, d), r = hTree(2 * k + 2, depth + 1, d);
  return k % 3 == 0 ? l + r : k % 3 == 1 ? l - r : (l > r ? l : r);
}
static int hFib(int n) { return n < 2 ? n : hFib(n - 1) + hFib(n - 2); }

int main() {
  const int blocks = 12, threads = 128, n = blocks * threads;
  std::vector<unsigned> in(n);
  unsigned x = 9;
  for (auto& v : in) { x = x * 1103515245u + 12345u; v = x >> 8; }
  int *d_tree, *d_fib, *d_ltree;
  unsigned *d_in, *d_out, *d_last;
  cudaMalloc(&d_tree, 4 * n); cudaMalloc(&d_fib, 4 * n); cudaMalloc(&d_ltree, 4 * n);
  cudaMalloc(&d_in, 4 * n); cudaMalloc(&d_out, 64 * n); cudaMalloc(&d_last, 4 * n);
  cudaMemcpy(d_in, in.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, 64 * n);
  uniformTree<<<blocks, threads>>>(d_tree);
  uniformChain<<<blocks, threads>>>(d_in, d_out, d_last);
  laneFib<<<blocks, threads>>>(d_fib);
  laneTree<<<blocks, threads>>>(d_in, d_ltree);
  std::vector<int> tree(n), fibs(n), ltree(n);
  std::vector<unsigned> out(16 * n), last(n);
  cudaMemcpy(tree.data(), d_tree, 4 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(fibs.data(), d_fib, 4 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(ltree.data(), d_ltree, 4 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(out.data(), d_out, 64 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(last.data(), d_last, 4 * n, cudaMemcpyDeviceToHost);
  bool ok = true;
  long long s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  for (int i = 0; i < n; ++i) {
    int w = i / 32;
    if (tree[i] != hTree(w % 7, 0, 1 + w % 5) + i % 32) ok = false;
    if (fibs[i] != hFib(i % 13)) ok = false;
    if (ltree[i] != hTree(i % 5, 0, 2 + in[i] % 4)) ok = false;
    unsigned v = in[i];
    for (unsigned k = 1; k <= 3 + (i / threads) % 6; ++k) v = (v * 2654435761u) ^ k;
    if (last[i] != v) ok = false;
    s1 += tree[i] * (i % 7); s2 += fibs[i]; s3 += ltree[i] * (i % 5); s4 += last[i] % 1000;
  }
  for (int i = 0; i < 16 * n; ++i) s4 += out[i] % 97;
  printf("recursion %lld %lld %lld %lld\n", s1, s2, s3, s4);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
