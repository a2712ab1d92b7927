// Byte histograms in the shapes of the classic "histogram64" and "histogram256" samples (own
// code). 64 bins: each thread owns a column of byte counters in shared memory (bin-major, thread
// positions swizzled so that a warp's byte counters fall in different banks), words of four bytes
// read per thread, at most 63 words a thread a pass so no byte counter overflows, then each thread
// sums one bin across the block's counters reading them as words; a merge kernel adds the blocks'
// partials by a shared-memory reduction. 256 bins: one sub-histogram per warp in shared memory
// filled by shared atomics (skewed data: many collisions), the warps' histograms added per block,
// then the same merge.
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

constexpr int T64 = 64;          // threads a block, 64-bin histogram
constexpr int BINS64 = 64;
constexpr int WORDS_PER_PASS = 63;
constexpr int WARPS256 = 6;      // warps a block, 256-bin histogram
constexpr int T256 = WARPS256 * 32;
constexpr int MERGE_T = 256;

__device__ __forceinline__ void countByte(unsigned char* col, unsigned bin) {
  col[bin * T64] += 1;  // one byte counter per thread and bin
}

__global__ void histo64(unsigned* partial, const unsigned* data, unsigned words) {
  __shared__ unsigned char s[BINS64 * T64];
  unsigned t = threadIdx.x;
  // swizzle: 4 neighbouring threads share a 32-bit word, 16 words across the banks
  unsigned pos = (t & ~63u) | ((t & 15u) << 2) | ((t & 48u) >> 4);
  unsigned char* col = s + pos;
#pragma unroll
  for (int i = 0; i < BINS64 * T64 / (4 * T64); ++i) ((unsigned*)s)[t + i * T64] = 0;
  __syncthreads();
  unsigned stride = T64 * gridDim.x;
  unsigned i = blockIdx.x * T64 + t;
  // the grid is large enough that no thread reads more than 63 words (no byte counter overflows)
  for (int k = 0; k < WORDS_PER_PASS && i < words; ++k, i += stride) {
    unsigned w = data[i];
    countByte(col, (w >> 2) & 63u);  // a byte's top six bits: its bin
    countByte(col, (w >> 10) & 63u);
    countByte(col, (w >> 18) & 63u);
    countByte(col, (w >> 26) & 63u);
  }
  __syncthreads();
  // thread t sums bin t over the 64 byte counters of its row, four at a time, rotating the start
  // word so the block's threads read different banks
  if (t < BINS64) {
    const unsigned* row = (const unsigned*)(s + t * T64);
    unsigned sum = 0, start = t & 15u;
    for (unsigned j = 0; j < T64 / 4; ++j) {
      unsigned w = row[(j + start) & 15u];
      sum += (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24);
    }
    partial[blockIdx.x * BINS64 + t] = sum;
  }
}

__global__ void histo256(unsigned* partial, const unsigned* data, unsigned words) {
  __shared__ unsigned s[WARPS256 * 256];
  unsigned t = threadIdx.x;
  for (unsigned j = t; j < WARPS256 * 256; j += T256) s[j] = 0;
  __syncthreads();
  unsigned* mine = s + (t >> 5) * 256;
  for (unsigned i = blockIdx.x * T256 + t; i < words; i += T256 * gridDim.x) {
    unsigned w = data[i];
    atomicAdd(mine + (w & 0xffu), 1u);
    atomicAdd(mine + ((w >> 8) & 0xffu), 1u);
    atomicAdd(mine + ((w >> 16) & 0xffu), 1u);
    atomicAdd(mine + (w >> 24), 1u);
  }
  __syncthreads();
  for (unsigned bin = t; bin < 256; bin += T256) {
    unsigned sum = 0;
    for (int w = 0; w < WARPS256; ++w) sum += s[w * 256 + bin];
    partial[blockIdx.x * 256 + bin] = sum;
  }
}

// one block per bin: adds `count` partial histograms of `bins` bins
__global__ void mergeHisto(unsigned* out, const unsigned* partial, unsigned count, unsigned bins) {
  __shared__ unsigned s[MERGE_T];
  unsigned sum = 0;
  for (unsigned i = threadIdx.x; i < count; i += MERGE_T) sum += partial[blockIdx.x + i * bins];
  s[threadIdx.x] = sum;
  for (unsigned k = MERGE_T / 2; k > 0; k >>= 1) {
    __syncthreads();
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main() {
  const unsigned bytes = 1u << 21;
  const unsigned words = bytes / 4;
  unsigned char* h = (unsigned char*)malloc(bytes);
  unsigned x = 2463534242u;
  for (unsigned i = 0; i < bytes; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    // skewed: a third of the bytes are one of four values
    h[i] = (x % 3 == 0) ? (unsigned char)(0x40 + ((x >> 8) & 3)) : (unsigned char)(x >> 24);
  }
  unsigned ref64[64] = {0}, ref256[256] = {0};
  for (unsigned i = 0; i < bytes; ++i) {
    ref256[h[i]]++;
    ref64[h[i] >> 2]++;
  }
  unsigned *d, *part, *out;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMalloc(&part, 256 * 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, 256 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  bool ok = true;
  unsigned got[256];

  // 64 bins: enough blocks that no thread reads more than 63 words
  unsigned blocks64 = (words + T64 * WORDS_PER_PASS - 1) / (T64 * WORDS_PER_PASS);
  histo64<<<blocks64, T64>>>(part, d, words);
  mergeHisto<<<BINS64, MERGE_T>>>(out, part, blocks64, BINS64);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, out, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  unsigned long long c = 0;
  int bad = 0;
  for (int b = 0; b < 64; ++b) {
    c = c * 31 + got[b];
    bad += got[b] != ref64[b];
  }
  printf("histo64: %u blocks, bin[16]=%u bin[63]=%u checksum %llx, %d bins wrong\n", blocks64, got[16],
         got[63], c, bad);
  ok = ok && !bad;

  // 256 bins: a fixed grid, and a smaller input over a grid that is not a divisor
  unsigned sizes[2] = {words, words / 3 + 5};
  unsigned grids[2] = {240, 37};
  for (int r = 0; r < 2; ++r) {
    histo256<<<grids[r], T256>>>(part, d, sizes[r]);
    mergeHisto<<<256, MERGE_T>>>(out, part, grids[r], 256);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned want[256] = {0};
    for (unsigned i = 0; i < sizes[r] * 4; ++i) want[h[i]]++;
    c = 0;
    bad = 0;
    for (int b = 0; b < 256; ++b) {
      c = c * 31 + got[b];
      bad += got[b] != want[b];
    }
    printf("histo256: %u words, %u blocks, bin[0x41]=%u checksum %llx, %d bins wrong\n", sizes[r], grids[r],
           got[0x41], c, bad);
    ok = ok && !bad;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
