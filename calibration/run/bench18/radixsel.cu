// Radix select of the k-th largest of 2^20 floats (negatives, duplicates, zeros of both signs) by
// their order-preserving keys, 8 bits a pass: a launch a pass builds a 256-bin histogram of the
// keys matching the prefix so far (shared atomicAdd at data-dependent bins, then the nonzero bins
// added to global), the host picks the bin and narrows k; then a stable compaction of the keys
// above the threshold (a count a block, host offsets, __ballot_sync/__popc ranks within warps and
// warp totals in shared memory). Checked against a host sort.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__host__ __device__ inline unsigned keyOf(float f) {
  unsigned u;
#ifdef __CUDA_ARCH__
  u = __float_as_uint(f);
#else
  memcpy(&u, &f, 4);
#endif
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void histPass(const float *__restrict__ x, int n, unsigned prefix, unsigned mask, int shift,
                         unsigned *__restrict__ hist) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned k = keyOf(x[i]);
    if ((k & mask) == prefix) atomicAdd(&h[(k >> shift) & 255u], 1u);
  }
  __syncthreads();
  if (h[threadIdx.x]) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

__global__ void countAbove(const float *__restrict__ x, int n, unsigned thr, unsigned *__restrict__ cnt) {
  __shared__ unsigned wsum[8];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool sel = i < n && keyOf(x[i]) > thr;
  const unsigned m = __ballot_sync(0xffffffffu, sel);
  if ((threadIdx.x & 31) == 0) wsum[threadIdx.x >> 5] = __popc(m);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = 0;
    for (int w = 0; w < 8; ++w) s += wsum[w];
    cnt[blockIdx.x] = s;
  }
}

__global__ void gatherAbove(const float *__restrict__ x, int n, unsigned thr, const unsigned *__restrict__ off,
                            float *__restrict__ out) {
  __shared__ unsigned wbase[8];
  const int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const float v = i < n ? x[i] : 0.f;
  const bool sel = i < n && keyOf(v) > thr;
  const unsigned m = __ballot_sync(0xffffffffu, sel);
  if (lane == 0) wbase[w] = __popc(m);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = off[blockIdx.x];
    for (int k = 0; k < 8; ++k) { unsigned c = wbase[k]; wbase[k] = s; s += c; }
  }
  __syncthreads();
  if (sel) out[wbase[w] + __popc(m & ((1u << lane) - 1u))] = v;
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n);
  unsigned s = 99991u;
  auto rnd = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; };
  for (int i = 0; i < n; ++i) {
    unsigned r = rnd();
    switch (r & 7) {
      case 0: x[i] = 0.f; break;
      case 1: x[i] = -0.f; break;
      case 2: x[i] = (float)((r >> 3) % 100); break;   // many duplicates
      default: x[i] = ((int)(r >> 8) - (1 << 23)) / 1024.f; break;
    }
  }
  std::vector<float> sorted = x;
  std::sort(sorted.begin(), sorted.end(), [](float a, float b) { return keyOf(a) > keyOf(b); });
  float *dX, *dOut; unsigned *dH, *dC, *dO;
  const int blocks = n / 256;
  CK(cudaMalloc(&dX, n * 4)); CK(cudaMalloc(&dOut, n * 4)); CK(cudaMalloc(&dH, 256 * 4));
  CK(cudaMalloc(&dC, blocks * 4)); CK(cudaMalloc(&dO, blocks * 4));
  CK(cudaMemcpy(dX, x.data(), n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  const int ks[2] = {1000, n / 2 + 777};
  for (int kk = 0; kk < 2; ++kk) {
    unsigned k = ks[kk], prefix = 0, mask = 0;
    for (int pass = 0; pass < 4; ++pass) {
      const int shift = 24 - 8 * pass;
      CK(cudaMemset(dH, 0, 256 * 4));
      histPass<<<240, 256>>>(dX, n, prefix, mask, shift, dH);
      CK(cudaGetLastError());
      unsigned h[256];
      CK(cudaMemcpy(h, dH, 256 * 4, cudaMemcpyDeviceToHost));
      int b = 255;
      while (h[b] < k) { k -= h[b]; --b; }
      prefix |= (unsigned)b << shift;
      mask |= 255u << shift;
    }
    const unsigned thr = prefix;   // the k-th largest key; k is now its rank among equal keys
    countAbove<<<blocks, 256>>>(dX, n, thr, dC);
    std::vector<unsigned> cnt(blocks), off(blocks);
    CK(cudaMemcpy(cnt.data(), dC, blocks * 4, cudaMemcpyDeviceToHost));
    unsigned tot = 0;
    for (int b = 0; b < blocks; ++b) { off[b] = tot; tot += cnt[b]; }
    CK(cudaMemcpy(dO, off.data(), blocks * 4, cudaMemcpyHostToDevice));
    gatherAbove<<<blocks, 256>>>(dX, n, thr, dO, dOut);
    CK(cudaGetLastError());
    std::vector<float> out(tot);
    CK(cudaMemcpy(out.data(), dOut, tot * 4, cudaMemcpyDeviceToHost));
    const float want = sorted[ks[kk] - 1];
    unsigned above = 0;
    std::vector<float> ref;
    for (int i = 0; i < n; ++i) if (keyOf(x[i]) > keyOf(want)) { above++; ref.push_back(x[i]); }
    bool ok = keyOf(want) == thr && above == tot && !memcmp(ref.data(), out.data(), tot * 4);
    double sum = 0;
    for (float f : out) sum += f;
    printf("radixsel k=%d: threshold key %08x (%g), %u above, their sum %.3f, %s\n", ks[kk], thr, want, tot, sum, ok ? "ok" : "FAIL");
    bad += !ok;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
