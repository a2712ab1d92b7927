// Where do lanes of one warp that reach the same code apart run it together? Small kernels with
// two paths that meet without a convergence barrier of their own: a __noinline__ callee called from
// both sides of a branch, both sides of a branch ending in the same inlined loop (ptxas may share
// its code), and a loop left by `break` at data-dependent iterations into a shared block. Every lane
// stores its __activemask() at the shared code's entry (am[case][thread]); the host prints per case
// and warp the distinct masks (one: the lanes ran the shared code as one group). 4 blocks x 64.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)
#define NT 256

__device__ __noinline__ int callee(int x, unsigned *am) {
  *am = __activemask();
  int s = 0;
  for (int k = 0; k < (x & 7); ++k) s += x * k + (s >> 3);
  return s;
}

// case 0: a callee from both sides (v % 3 == 0, == 1), the rest skip it
__global__ void twoCalls(const int *in, int *out, unsigned *am) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r;
  if (v % 3 == 0) r = callee(v * 2, am + i);
  else if (v % 3 == 1) r = callee(v + 7, am + i) + 1;
  else r = v;
  out[i] = r;
}

__device__ __forceinline__ int tail(int x, unsigned *am) {
  *am = __activemask();
  int s = x;
  while (s > 7) s = (s & 1) ? 3 * s + 1 : s >> 1;  // data-dependent trip count
  return s;
}

// case 1: both sides of a branch end in the same inlined loop
__global__ void sharedTail(const int *in, int *out, unsigned *am) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r;
  if (v & 1) {
    int a = v;
    for (int k = 0; k < (v & 3); ++k) a = a * 5 + k;
    r = tail(a & 1023, am + i);
  } else {
    r = tail((v >> 1) + 3, am + i) + 2;
  }
  out[i] = r;
}

// case 2: a loop left by `break` at the first k with table[k] == v % 16 into a shared block
__global__ void loopExit(const int *in, const int *table, int *out, unsigned *am) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r = -1;
  for (int k = 0; k < 64; ++k) {
    if (table[k] == v % 16) {
      am[i] = __activemask();
      r = k * 3 + (v & 5);
      break;
    }
  }
  out[i] = r;
}

int main() {
  std::vector<int> h(NT), t(64);
  unsigned x = 4242;
  for (int i = 0; i < NT; ++i) { x = x * 1664525u + 1013904223u; h[i] = (x >> 8) % 1000; }
  for (int k = 0; k < 64; ++k) { x = x * 1664525u + 1013904223u; t[k] = (x >> 8) % 20; }
  int *dIn, *dT, *dOut; unsigned *dAm;
  CK(cudaMalloc(&dIn, NT * 4)); CK(cudaMalloc(&dT, 64 * 4)); CK(cudaMalloc(&dOut, NT * 4));
  CK(cudaMalloc(&dAm, NT * 4));
  CK(cudaMemcpy(dIn, h.data(), NT * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dT, t.data(), 64 * 4, cudaMemcpyHostToDevice));
  const char *names[3] = {"twoCalls", "sharedTail", "loopExit"};
  for (int c = 0; c < 3; ++c) {
    CK(cudaMemset(dAm, 0, NT * 4));
    if (c == 0) twoCalls<<<NT / 64, 64>>>(dIn, dOut, dAm);
    if (c == 1) sharedTail<<<NT / 64, 64>>>(dIn, dOut, dAm);
    if (c == 2) loopExit<<<NT / 64, 64>>>(dIn, dT, dOut, dAm);
    CK(cudaGetLastError());
    std::vector<unsigned> am(NT); std::vector<int> o(NT);
    CK(cudaMemcpy(am.data(), dAm, NT * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o.data(), dOut, NT * 4, cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < NT; ++i) sum = sum * 31 + o[i];
    for (int w = 0; w < NT / 32; ++w) {
      unsigned seen[32]; int n = 0;
      for (int l = 0; l < 32; ++l) {
        unsigned m = am[w * 32 + l];
        if (!m) continue;
        bool dup = false;
        for (int q = 0; q < n; ++q) dup |= seen[q] == m;
        if (!dup) seen[n++] = m;
      }
      printf("%s warp %d groups %d:", names[c], w, n);
      for (int q = 0; q < n; ++q) printf(" %08x", seen[q]);
      printf("\n");
    }
    printf("%s result %lld\n", names[c], sum);
  }
  return 0;
}
