// Recursion in device functions: a recursive quicksort of each thread's 12 values (two
// recursive calls per level, a depth from the data) and a recursive evaluation of an expression
// tree whose depth comes from the data; the stack size set with cudaDeviceSetLimit. The host
// checks every result.
#include <cstdio>
#include <vector>
#include <algorithm>

__device__ __noinline__ void qsortRec(int* a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) ++i;
    while (a[j] > p) --j;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
  }
  qsortRec(a, lo, j);
  qsortRec(a, i, hi);
}

// node k of a complete tree: a leaf when depth reaches d, else op(k) of its children
__device__ __noinline__ int evalTree(int k, int depth, int d) {
  if (depth == d) return (k * 7) % 13 - 6;
  int l = evalTree(2 * k + 1, depth + 1, d), r = evalTree(2 * k + 2, depth + 1, d);
  return k % 3 == 0 ? l + r : k % 3 == 1 ? l - r : (l > r ? l : r);
}

__global__ void recurse(const int* in, int* sorted, int* tree, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[12];
  for (int k = 0; k < 12; ++k) a[k] = in[i * 12 + k];
  qsortRec(a, 0, 11);
  for (int k = 0; k < 12; ++k) sorted[i * 12 + k] = a[k];
  tree[i] = evalTree(i % 5, 0, 2 + in[i * 12] % 4);
}

int main() {
  bool ok = true;
  const int m = 1000;
  std::vector<int> in(m * 12);
  unsigned x = 5;
  for (auto& v : in) { x = x * 1103515245u + 12345u; v = (int)((x >> 10) % 1000); }
  int *d_in, *d_sorted, *d_tree;
  cudaMalloc(&d_in, 48 * m); cudaMalloc(&d_sorted, 48 * m); cudaMalloc(&d_tree, 4 * m);
  cudaMemcpy(d_in, in.data(), 48 * m, cudaMemcpyHostToDevice);
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  recurse<<<(m + 63) / 64, 64>>>(d_in, d_sorted, d_tree, m);
  std::vector<int> sorted(m * 12), tree(m);
  cudaMemcpy(sorted.data(), d_sorted, 48 * m, cudaMemcpyDeviceToHost);
  cudaMemcpy(tree.data(), d_tree, 4 * m, cudaMemcpyDeviceToHost);
  long ts = 0;
  auto ev = [](auto&& self, int k, int depth, int d) -> int {
    if (depth == d) return (k * 7) % 13 - 6;
    int l = self(self, 2 * k + 1, depth + 1, d), r = self(self, 2 * k + 2, depth + 1, d);
    return k % 3 == 0 ? l + r : k % 3 == 1 ? l - r : std::max(l, r);
  };
  for (int i = 0; i < m; ++i) {
    std::vector<int> a(in.begin() + i * 12, in.begin() + i * 12 + 12);
    std::sort(a.begin(), a.end());
    for (int k = 0; k < 12; ++k) if (a[k] != sorted[i * 12 + k]) ok = false;
    if (tree[i] != ev(ev, i % 5, 0, 2 + in[i * 12] % 4)) ok = false;
    ts += tree[i] * (i % 9) + sorted[i * 12 + 5];
  }
  printf("recurse %ld\n", ts);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
