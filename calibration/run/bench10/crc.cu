// CRC-32 (reflected, polynomial 0xEDB88320) of many messages of different lengths, a thread a
// message: the 256-entry table in shared memory (data-dependent shared loads: a warp's indices
// fall in banks by the data), byte by byte in a loop whose trip count is the message's length;
// then slicing-by-4 with four 256-entry tables (1024 words of shared memory) over the aligned
// words and the byte loop for the tail; then an Adler-32 checksum a warp a message (lanes stride
// over the bytes, the two sums combined by `__shfl_xor_sync`, the modulo at the end). Message
// lengths 0 to 939. The host computes every CRC and checksum.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void crcBytes(const unsigned char *data, const int *off, const int *len, const unsigned *table,
                         unsigned *crc, int nm) {
  __shared__ unsigned t[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) t[i] = table[i];
  __syncthreads();
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= nm) return;
  const unsigned char *p = data + off[m];
  unsigned c = 0xffffffffu;
  for (int i = 0; i < len[m]; ++i) c = t[(c ^ p[i]) & 0xff] ^ (c >> 8);
  crc[m] = ~c;
}

__global__ void crcSlice4(const unsigned char *data, const int *off, const int *len, const unsigned *table,
                          unsigned *crc, int nm) {
  __shared__ unsigned t[4][256];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) t[i >> 8][i & 255] = table[i];
  __syncthreads();
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= nm) return;
  const unsigned char *p = data + off[m];
  int n = len[m], i = 0;
  unsigned c = 0xffffffffu;
  const unsigned *w = (const unsigned *)p;
  for (; i + 4 <= n; i += 4) {
    c ^= w[i >> 2];
    c = t[3][c & 0xff] ^ t[2][(c >> 8) & 0xff] ^ t[1][(c >> 16) & 0xff] ^ t[0][c >> 24];
  }
  for (; i < n; ++i) c = t[0][(c ^ p[i]) & 0xff] ^ (c >> 8);
  crc[m] = ~c;
}

__global__ void adlerWarp(const unsigned char *data, const int *off, const int *len, unsigned *sum, int nm) {
  int m = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (m >= nm) return;
  const unsigned char *p = data + off[m];
  int n = len[m];
  unsigned a = 0, b = 0;
  for (int i = lane; i < n; i += 32) { a += p[i]; b += p[i] * (unsigned)(n - i); }
  for (int o = 16; o > 0; o >>= 1) { a += __shfl_xor_sync(0xffffffffu, a, o); b += __shfl_xor_sync(0xffffffffu, b, o); }
  if (lane == 0) sum[m] = ((b + (unsigned)n) % 65521u) << 16 | ((a + 1) % 65521u);
}

int main() {
  unsigned tab[4][256];
  for (int i = 0; i < 256; ++i) {
    unsigned c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    tab[0][i] = c;
  }
  for (int i = 0; i < 256; ++i)
    for (int k = 1; k < 4; ++k) tab[k][i] = tab[0][tab[k - 1][i] & 0xff] ^ (tab[k - 1][i] >> 8);
  const int nm = 3000;
  std::vector<int> off(nm), len(nm);
  unsigned s = 31337u; int total = 0;
  for (int m = 0; m < nm; ++m) {
    s = s * 1664525u + 1013904223u;
    len[m] = (m % 50 == 0) ? 0 : (int)((s >> 12) % 700) + (m % 7) * 40;
    off[m] = total; total += (len[m] + 3) & ~3;
  }
  std::vector<unsigned char> data(total + 4);
  for (int i = 0; i < total; ++i) { s = s * 1664525u + 1013904223u; data[i] = (unsigned char)(s >> 24); }
  unsigned char *dd; int *doff, *dlen; unsigned *dtab, *dc1, *dc2, *da;
  CK(cudaMalloc(&dd, total + 4)); CK(cudaMalloc(&doff, nm * 4)); CK(cudaMalloc(&dlen, nm * 4));
  CK(cudaMalloc(&dtab, 4096)); CK(cudaMalloc(&dc1, nm * 4)); CK(cudaMalloc(&dc2, nm * 4)); CK(cudaMalloc(&da, nm * 4));
  CK(cudaMemcpy(dd, data.data(), total + 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(doff, off.data(), nm * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dlen, len.data(), nm * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dtab, tab, 4096, cudaMemcpyHostToDevice));
  crcBytes<<<(nm + 127) / 128, 128>>>(dd, doff, dlen, dtab, dc1, nm);
  crcSlice4<<<(nm + 255) / 256, 256>>>(dd, doff, dlen, dtab, dc2, nm);
  adlerWarp<<<(nm * 32 + 255) / 256, 256>>>(dd, doff, dlen, da, nm);
  CK(cudaGetLastError());
  std::vector<unsigned> c1(nm), c2(nm), ad(nm);
  CK(cudaMemcpy(c1.data(), dc1, nm * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(c2.data(), dc2, nm * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ad.data(), da, nm * 4, cudaMemcpyDeviceToHost));
  int bad = 0; unsigned x1 = 0, x2 = 0;
  for (int m = 0; m < nm; ++m) {
    unsigned c = 0xffffffffu, a = 1, b = 0;
    for (int i = 0; i < len[m]; ++i) {
      unsigned char v = data[off[m] + i];
      c = tab[0][(c ^ v) & 0xff] ^ (c >> 8);
      a = (a + v) % 65521u; b = (b + a) % 65521u;
    }
    c = ~c;
    bad += c1[m] != c || c2[m] != c || ad[m] != (b << 16 | a);
    x1 ^= c * (m + 1); x2 += ad[m];
  }
  printf("crc: %d messages, %d bytes, crc mix %08x, adler sum %08x\n", nm, total, x1, x2);
  printf("crc %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
