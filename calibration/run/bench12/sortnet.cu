// Sorting networks in shared memory: a bitonic sort of 2048 keys a block (1024 threads, two keys a
// thread, a barrier a step), Batcher's odd-even merge sort of 512 key-value pairs a block (uint64
// keys, a barrier a stage, half the threads idle in some steps), then merge-path merges of sorted
// runs in global memory (each thread binary-searches its diagonal, then merges 16 elements) until
// one run is left. Checked against std::sort / std::stable_sort. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__global__ void bitonic2048(unsigned *keys) {
  __shared__ unsigned s[2048];
  unsigned *g = keys + blockIdx.x * 2048;
  s[threadIdx.x] = g[threadIdx.x];
  s[threadIdx.x + 1024] = g[threadIdx.x + 1024];
  __syncthreads();
  for (int size = 2; size <= 2048; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      // thread t compares pos and pos + stride
      int t = threadIdx.x;
      int pos = 2 * t - (t & (stride - 1));
      bool up = ((pos & size) == 0);
      unsigned a = s[pos], b = s[pos + stride];
      if ((a > b) == up) { s[pos] = b; s[pos + stride] = a; }
      __syncthreads();
    }
  }
  g[threadIdx.x] = s[threadIdx.x];
  g[threadIdx.x + 1024] = s[threadIdx.x + 1024];
}

// Batcher's odd-even merge sort of 512 (key, value) pairs with 256 threads
__global__ void oddEven512(uint64_t *keys, int *vals) {
  __shared__ uint64_t sk[512];
  __shared__ int sv[512];
  uint64_t *gk = keys + blockIdx.x * 512;
  int *gv = vals + blockIdx.x * 512;
  for (int i = threadIdx.x; i < 512; i += blockDim.x) { sk[i] = gk[i]; sv[i] = gv[i]; }
  __syncthreads();
  for (int p = 1; p < 512; p <<= 1) {
    for (int k = p; k >= 1; k >>= 1) {
      for (int j = k % p; j + k < 512; j += 2 * k) {
        // pairs (i + j, i + j + k) for i in [0, k), kept inside the same 2p block
        int i = threadIdx.x;
        if (i < k && i + j + k < 512) {
          int a = i + j, b = i + j + k;
          if (a / (2 * p) == b / (2 * p)) {
            uint64_t ka = sk[a], kb = sk[b];
            if (ka > kb || (ka == kb && sv[a] > sv[b])) {
              sk[a] = kb; sk[b] = ka;
              int t = sv[a]; sv[a] = sv[b]; sv[b] = t;
            }
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < 512; i += blockDim.x) { gk[i] = sk[i]; gv[i] = sv[i]; }
}

// merge pairs of sorted runs of length `run` from src into dst; each thread makes 16 outputs
__global__ void mergePath(const unsigned *src, unsigned *dst, int n, int run) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int out0 = t * 16;
  if (out0 >= n) return;
  int pairBase = (out0 / (2 * run)) * (2 * run);
  const unsigned *A = src + pairBase, *B = src + pairBase + run;
  int la = min(run, n - pairBase), lb = max(0, min(run, n - pairBase - run));
  int d = out0 - pairBase;
  // first i in A with A[i] > B[d - i - 1] (stable: A first on ties)
  int lo = max(0, d - lb), hi = min(d, la);
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (A[mid] <= B[d - mid - 1]) lo = mid + 1; else hi = mid;
  }
  int i = lo, j = d - lo;
  for (int k = 0; k < 16 && out0 + k < pairBase + la + lb; ++k) {
    bool takeA = j >= lb || (i < la && A[i] <= B[j]);
    dst[out0 + k] = takeA ? A[i++] : B[j++];
  }
}

int main() {
  const int n = 1 << 18;  // 128 blocks of 2048
  std::vector<unsigned> h(n);
  unsigned s = 2024;
  for (int i = 0; i < n; ++i) { s = s * 1103515245u + 12345u; h[i] = (s >> 3) % (i % 3 ? 100000u : 500u); }
  unsigned *dA, *dB;
  CK(cudaMalloc(&dA, n * 4)); CK(cudaMalloc(&dB, n * 4));
  CK(cudaMemcpy(dA, h.data(), n * 4, cudaMemcpyHostToDevice));
  bool ok = true;
  bitonic2048<<<n / 2048, 1024>>>(dA);
  CK(cudaGetLastError());
  std::vector<unsigned> r(n);
  CK(cudaMemcpy(r.data(), dA, n * 4, cudaMemcpyDeviceToHost));
  {
    std::vector<unsigned> e = h;
    for (int b = 0; b < n / 2048; ++b) std::sort(e.begin() + b * 2048, e.begin() + (b + 1) * 2048);
    bool k = e == r;
    printf("bitonic2048: %d blocks %s\n", n / 2048, k ? "ok" : "WRONG");
    ok &= k;
  }
  // merges of 2048-runs up to one run: 7 launches
  int launches = 0;
  for (int run = 2048; run < n; run <<= 1) {
    mergePath<<<(n / 16 + 127) / 128, 128>>>(dA, dB, n, run);
    CK(cudaGetLastError());
    std::swap(dA, dB);
    ++launches;
  }
  CK(cudaMemcpy(r.data(), dA, n * 4, cudaMemcpyDeviceToHost));
  {
    std::vector<unsigned> e = h;
    std::sort(e.begin(), e.end());
    bool k = e == r;
    unsigned long long c = 0;
    for (int i = 0; i < n; i += 97) c = c * 31 + r[i];
    printf("mergePath: %d launches, checksum %llx %s\n", launches, c, k ? "ok" : "WRONG");
    ok &= k;
  }
  // odd-even merge sort of key-value pairs
  const int m = 1 << 16;
  std::vector<uint64_t> hk(m);
  std::vector<int> hv(m);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < m; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; hk[i] = (x >> 20) % 3000 * 0x100000001ull; hv[i] = i; }
  uint64_t *dK; int *dV;
  CK(cudaMalloc(&dK, m * 8)); CK(cudaMalloc(&dV, m * 4));
  CK(cudaMemcpy(dK, hk.data(), m * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dV, hv.data(), m * 4, cudaMemcpyHostToDevice));
  oddEven512<<<m / 512, 256>>>(dK, dV);
  CK(cudaGetLastError());
  std::vector<uint64_t> rk(m);
  std::vector<int> rv(m);
  CK(cudaMemcpy(rk.data(), dK, m * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rv.data(), dV, m * 4, cudaMemcpyDeviceToHost));
  {
    bool k = true;
    for (int b = 0; b < m / 512; ++b) {
      std::vector<std::pair<uint64_t, int>> e;
      for (int i = 0; i < 512; ++i) e.push_back({hk[b * 512 + i], hv[b * 512 + i]});
      std::sort(e.begin(), e.end());
      for (int i = 0; i < 512; ++i) if (e[i].first != rk[b * 512 + i] || e[i].second != rv[b * 512 + i]) k = false;
    }
    printf("oddEven512: %d blocks %s\n", m / 512, k ? "ok" : "WRONG");
    ok &= k;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
