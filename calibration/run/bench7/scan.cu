// Prefix sums in the shapes of the classic "shfl_scan" and "scan" samples (own code): a block scan
// built from warp scans by __shfl_up_sync (lane tests), the warps' totals scanned by the first warp
// through shared memory, the blocks' totals scanned by a second launch and added back by a third;
// an exclusive scan of uint4 (four elements a thread) with a Hillis-Steele scan of the threads'
// totals in a zero-padded shared array of twice the block; a summed-area table (rows by the
// shuffle scan, columns by a thread a column walking down).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__device__ __forceinline__ unsigned warpInclusive(unsigned v) {
  unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    unsigned u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  return v;
}

// inclusive scan of each block's 1024 elements; the block's total into sums
__global__ void shflScan(unsigned* data, unsigned* sums, unsigned n) {
  __shared__ unsigned warpTot[32];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned v = i < n ? data[i] : 0u;
  v = warpInclusive(v);
  if (lane == 31) warpTot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned w = lane < blockDim.x / 32 ? warpTot[lane] : 0u;
    w = warpInclusive(w);
    warpTot[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warpTot[warp - 1];
  if (i < n) data[i] = v;
  if (sums && threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = v;
}

__global__ void addBlockSums(unsigned* data, const unsigned* sums, unsigned n) {
  __shared__ unsigned add;
  if (threadIdx.x == 0) add = blockIdx.x > 0 ? sums[blockIdx.x - 1] : 0u;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += add;
}

constexpr unsigned ST = 256;  // threads a block, uint4 scan
// exclusive scan of 4*ST elements a block (uint4 a thread); the block's total into sums
__global__ void scanExclusive4(uint4* out, const uint4* in, unsigned* sums) {
  __shared__ unsigned s[2 * ST];
  unsigned t = threadIdx.x;
  uint4 d = in[blockIdx.x * ST + t];
  d.y += d.x;
  d.z += d.y;
  d.w += d.z;
  // Hillis-Steele over the threads' totals; the lower half holds zeros so no index test is needed
  s[t] = 0;
  unsigned pos = ST + t;
  s[pos] = d.w;
  for (unsigned off = 1; off < ST; off <<= 1) {
    __syncthreads();
    unsigned u = s[pos] + s[pos - off];
    __syncthreads();
    s[pos] = u;
  }
  __syncthreads();
  unsigned before = s[pos] - d.w;
  uint4 r = make_uint4(before, before + d.x, before + d.y, before + d.z);
  out[blockIdx.x * ST + t] = r;
  if (t == ST - 1) sums[blockIdx.x] = before + d.w;
}

// exclusive scan of up to 1024 block totals by one block of 1024 threads
__global__ void scanSums(unsigned* sums, unsigned count) {
  __shared__ unsigned s[2 * 1024];
  unsigned t = threadIdx.x;
  unsigned v = t < count ? sums[t] : 0u;
  s[t] = 0;
  unsigned pos = 1024 + t;
  s[pos] = v;
  for (unsigned off = 1; off < 1024; off <<= 1) {
    __syncthreads();
    unsigned u = s[pos] + s[pos - off];
    __syncthreads();
    s[pos] = u;
  }
  __syncthreads();
  if (t < count) sums[t] = s[pos] - v;
}

__global__ void uniformAdd4(uint4* data, const unsigned* sums) {
  __shared__ unsigned add;
  if (threadIdx.x == 0) add = sums[blockIdx.x];
  __syncthreads();
  uint4 d = data[blockIdx.x * ST + threadIdx.x];
  d.x += add;
  d.y += add;
  d.z += add;
  d.w += add;
  data[blockIdx.x * ST + threadIdx.x] = d;
}

// summed-area table: each row scanned by one block (shuffle scan), then each column by a thread
__global__ void rowScan(unsigned* img, unsigned w) {
  __shared__ unsigned warpTot[32];
  __shared__ unsigned carry;
  unsigned* row = img + blockIdx.x * w;
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) carry = 0;
  for (unsigned base = 0; base < w; base += blockDim.x) {
    unsigned i = base + threadIdx.x;
    unsigned v = i < w ? row[i] : 0u;
    v = warpInclusive(v);
    __syncthreads();
    if (lane == 31) warpTot[warp] = v;
    __syncthreads();
    if (warp == 0) warpTot[lane] = warpInclusive(lane < blockDim.x / 32 ? warpTot[lane] : 0u);
    __syncthreads();
    v += carry + (warp ? warpTot[warp - 1] : 0u);
    if (i < w) row[i] = v;
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) carry = v;
  }
}

__global__ void colScan(unsigned* img, unsigned w, unsigned h) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= w) return;
  unsigned acc = 0;
  for (unsigned r = 0; r < h; ++r) {
    acc += img[r * w + c];
    img[r * w + c] = acc;
  }
}

int main() {
  const unsigned n = 1u << 20;
  unsigned* h = (unsigned*)malloc(n * 4);
  unsigned* g = (unsigned*)malloc(n * 4);
  unsigned x = 7u;
  for (unsigned i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    h[i] = (x >> 16) & 255u;
  }
  unsigned *d, *d2, *sums;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&d2, n * 4));
  CHECK(cudaMalloc(&sums, 4096 * 4));
  bool ok = true;

  // inclusive scan by shuffles over a size that is not a multiple of the block
  unsigned m = n - 300;
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  unsigned blocks = (m + 1023) / 1024;
  shflScan<<<blocks, 1024>>>(d, sums, m);
  shflScan<<<1, 1024>>>(sums, nullptr, blocks);
  addBlockSums<<<blocks, 1024>>>(d, sums, m);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(g, d, m * 4, cudaMemcpyDeviceToHost));
  unsigned acc = 0;
  int bad = 0;
  for (unsigned i = 0; i < m; ++i) {
    acc += h[i];
    bad += g[i] != acc;
  }
  printf("shfl scan: %u elements, last %u, %d wrong\n", m, g[m - 1], bad);
  ok = ok && !bad;

  // exclusive scan of uint4
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  unsigned b4 = n / (4 * ST);
  scanExclusive4<<<b4, ST>>>((uint4*)d2, (const uint4*)d, sums);
  scanSums<<<1, 1024>>>(sums, b4);
  uniformAdd4<<<b4, ST>>>((uint4*)d2, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(g, d2, n * 4, cudaMemcpyDeviceToHost));
  acc = 0;
  bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    bad += g[i] != acc;
    acc += h[i];
  }
  printf("uint4 exclusive scan: %u elements, %u blocks, g[777777]=%u, %d wrong\n", n, b4, g[777777], bad);
  ok = ok && !bad;

  // summed-area table of a 600 x 700 image
  const unsigned W = 700, H = 600;
  CHECK(cudaMemcpy(d, h, W * H * 4, cudaMemcpyHostToDevice));
  rowScan<<<H, 256>>>(d, W);
  colScan<<<(W + 127) / 128, 128>>>(d, W, H);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(g, d, W * H * 4, cudaMemcpyDeviceToHost));
  bad = 0;
  unsigned* ref = (unsigned*)calloc(W * H, 4);
  for (unsigned r = 0; r < H; ++r)
    for (unsigned c = 0; c < W; ++c) {
      unsigned v = h[r * W + c];
      if (r) v += ref[(r - 1) * W + c];
      if (c) v += ref[r * W + c - 1];
      if (r && c) v -= ref[(r - 1) * W + c - 1];
      ref[r * W + c] = v;
      bad += g[r * W + c] != v;
    }
  printf("summed-area table %ux%u: corner %u, (300,350)=%u, %d wrong\n", W, H, g[W * H - 1], g[300 * W + 350],
         bad);
  ok = ok && !bad;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
