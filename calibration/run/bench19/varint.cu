// LEB128 variable-length integers decoded on the GPU: a byte stream of 7-bit groups (the top bit
// set on every byte but a value's last). A thread four bytes (one 32-bit word): the values ending
// in its bytes counted, a block's count by a __shfl_up_sync warp scan and warp totals in shared
// memory, one block scanning the block totals, then every value's first byte (the stream's first or
// one after a last byte) found again, its index by the same scan, and the value gathered by a
// data-dependent walk of up to 10 bytes; the decoded values summed by 64-bit shuffles and one
// atomicAdd a warp. Two streams: 32-bit values of 1-5 bytes in mixed lengths, and 64-bit values of
// 1-10 bytes mostly short. Checked against the host's own encoder.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int TPB = 256;

__device__ __forceinline__ unsigned lastMask(unsigned w) {   // bit k: byte k ends a value
  unsigned m = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) m |= ((w >> (8 * k + 7)) & 1u) ? 0u : (1u << k);
  return m;
}

// inclusive block scan of v; returns the inclusive value, the block total in *total
__device__ int blockScan(int v, int *total) {
  __shared__ int warpSum[TPB / 32];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int d = 1; d < 32; d <<= 1) {
    int o = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += o;
  }
  if (lane == 31) warpSum[w] = v;
  __syncthreads();
  if (w == 0) {
    int s = lane < TPB / 32 ? warpSum[lane] : 0;
    for (int d = 1; d < TPB / 32; d <<= 1) {
      int o = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += o;
    }
    if (lane < TPB / 32) warpSum[lane] = s;
  }
  __syncthreads();
  if (w > 0) v += warpSum[w - 1];
  *total = warpSum[TPB / 32 - 1];
  __syncthreads();
  return v;
}

__global__ void countEnds(const unsigned *words, int nw, int *blockCount) {
  const int i = blockIdx.x * TPB + threadIdx.x;
  const int c = i < nw ? __popc(lastMask(words[i])) : 0;
  int total;
  blockScan(c, &total);
  if (threadIdx.x == 0) blockCount[blockIdx.x] = total;
}

__global__ void scanTotals(int *blockCount, int nb) {   // one block, exclusive, in place
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int base = 0; base < nb; base += TPB) {
    const int i = base + threadIdx.x;
    const int v = i < nb ? blockCount[i] : 0;
    int total;
    const int inc = blockScan(v, &total);
    if (i < nb) blockCount[i] = carry + inc - v;
    __syncthreads();
    if (threadIdx.x == 0) carry += total;
    __syncthreads();
  }
}

__global__ void decode(const unsigned char *bytes, const unsigned *words, int nw, int nbytes, const int *blockStart,
                       unsigned long long *out, int nvals) {
  const int i = blockIdx.x * TPB + threadIdx.x;
  unsigned w = 0, prevTop = 0;
  if (i < nw) {
    w = words[i];
    prevTop = i > 0 ? (words[i - 1] >> 31) : 0;
  }
  const unsigned ends = i < nw ? lastMask(w) : 0u;
  int total;
  const int inc = blockScan(__popc(ends), &total);
  int k = blockStart[blockIdx.x] + inc - __popc(ends);   // values ended before this word
  if (i >= nw) return;
  for (int b = 0; b < 4; ++b) {
    const int pos = 4 * i + b;
    if (pos >= nbytes) break;
    const bool starts = (b == 0) ? (pos == 0 || prevTop == 0) : ((ends >> (b - 1)) & 1u);
    if (starts) {
      unsigned long long v = 0;
      int shift = 0, p = pos;
      unsigned char c;
      do {
        c = bytes[p++];
        v |= (unsigned long long)(c & 0x7f) << shift;
        shift += 7;
      } while ((c & 0x80) && shift < 70);
      if (k < nvals) out[k] = v;
    }
    if ((ends >> b) & 1u) ++k;
  }
}

__global__ void sum64(const unsigned long long *v, int n, unsigned long long *sum, unsigned *ones) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long x = i < n ? v[i] : 0ull;
  unsigned short1 = __ballot_sync(0xffffffffu, i < n && x < 128);
  for (int d = 16; d > 0; d >>= 1) x += __shfl_down_sync(0xffffffffu, x, d);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(sum, x);
    atomicAdd(ones, (unsigned)__popc(short1));
  }
}

static void encode(uint64_t v, std::vector<unsigned char> &s) {
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    if (v) c |= 0x80;
    s.push_back(c);
  } while (v);
}

static int runStream(int which, int n, unsigned &rng) {
  auto rnd = [&]() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; };
  std::vector<uint64_t> vals(n);
  std::vector<unsigned char> s;
  for (int i = 0; i < n; ++i) {
    uint64_t v;
    if (which == 0) {
      int bits = 1 + rnd() % 32;
      v = rnd() & (bits == 32 ? 0xffffffffu : ((1u << bits) - 1));
    } else {
      unsigned r = rnd() % 16;
      int bits = r < 10 ? 1 + r % 7 : (r < 14 ? 8 + rnd() % 24 : 33 + rnd() % 32);
      uint64_t hi = ((uint64_t)rnd() << 32) | rnd();
      v = bits == 64 ? hi : (hi & ((1ull << bits) - 1));
    }
    vals[i] = v;
    encode(v, s);
  }
  const int nbytes = (int)s.size();
  s.resize((nbytes + 3) & ~3, 0x00);
  const int nw = (int)s.size() / 4, nb = (nw + TPB - 1) / TPB;
  unsigned char *dB; int *dC; unsigned long long *dV, *dS; unsigned *dO;
  CK(cudaMalloc(&dB, s.size())); CK(cudaMalloc(&dC, nb * 4)); CK(cudaMalloc(&dV, n * 8));
  CK(cudaMalloc(&dS, 8)); CK(cudaMalloc(&dO, 4));
  CK(cudaMemcpy(dB, s.data(), s.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(dV, 0xff, n * 8)); CK(cudaMemset(dS, 0, 8)); CK(cudaMemset(dO, 0, 4));
  countEnds<<<nb, TPB>>>((const unsigned *)dB, nw, dC);
  scanTotals<<<1, TPB>>>(dC, nb);
  decode<<<nb, TPB>>>(dB, (const unsigned *)dB, nw, nbytes, dC, dV, n);
  sum64<<<(n + 255) / 256, 256>>>(dV, n, dS, dO);
  CK(cudaGetLastError());
  std::vector<unsigned long long> got(n);
  unsigned long long gs; unsigned go;
  CK(cudaMemcpy(got.data(), dV, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&gs, dS, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&go, dO, 4, cudaMemcpyDeviceToHost));
  unsigned long long hs = 0; unsigned ho = 0, h = 2166136261u; int bad = 0;
  for (int i = 0; i < n; ++i) {
    hs += vals[i]; ho += vals[i] < 128;
    bad += got[i] != vals[i];
    h = (h ^ (unsigned)(got[i] ^ (got[i] >> 32))) * 16777619u;
  }
  bad += gs != hs || go != ho;
  printf("stream %d: %d values in %d bytes (%d blocks), sum %llu, one-byte %u, hash %08x, wrong %d\n", which, n, nbytes, nb,
         gs, go, h, bad);
  CK(cudaFree(dB)); CK(cudaFree(dC)); CK(cudaFree(dV)); CK(cudaFree(dS)); CK(cudaFree(dO));
  return bad;
}

int main() {
  unsigned rng = 0x9e3779b9u;
  int bad = runStream(0, 150000, rng);
  bad += runStream(1, 120000, rng);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
