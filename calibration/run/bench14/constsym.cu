// __constant__ tables indexed by data: an 8-round substitution-permutation cipher on 32-bit words
// (a 256-entry S-box and 8 round keys in constant memory, lanes reading different S-box entries),
// and a piecewise polynomial whose segment (16 segments x 4 coefficients) each element picks by
// its value. Tables go in with cudaMemcpyToSymbolAsync on a stream, results come back from a
// __device__ array with cudaMemcpyFromSymbol(Async) at an offset; cudaGetSymbolAddress and
// cudaGetSymbolSize give a __device__ counter to cudaMemset. Checked against the host.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__constant__ unsigned char sbox[256];
__constant__ unsigned roundKey[8];
__constant__ float seg[16][4];
__device__ float polyOut[1 << 16];
__device__ unsigned sboxHits;

__host__ __device__ unsigned rotl(unsigned x, int r) { return (x << r) | (x >> (32 - r)); }

__global__ void cipher(unsigned *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = w[i];
  unsigned hits = 0;
  for (int r = 0; r < 8; r++) {
    v ^= roundKey[r];
    unsigned b0 = sbox[v & 255], b1 = sbox[(v >> 8) & 255], b2 = sbox[(v >> 16) & 255], b3 = sbox[v >> 24];
    hits += (b0 == 0) + (b1 == 0) + (b2 == 0) + (b3 == 0);
    v = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    v = rotl(v, 5) ^ rotl(v, 17);
  }
  w[i] = v;
  if (hits) atomicAdd(&sboxHits, hits);
}
__global__ void piecewise(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t = x[i];
  int k = min(15, max(0, (int)(t * 16.0f)));
  float u = t * 16.0f - k;
  polyOut[i] = ((seg[k][3] * u + seg[k][2]) * u + seg[k][1]) * u + seg[k][0];
}

int main() {
  const int N = 1 << 18, M = 1 << 16;
  unsigned char hs[256]; unsigned hk[8]; float hseg[16][4];
  for (int i = 0; i < 256; i++) hs[i] = (unsigned char)((i * 167 + 13) & 255);  // a bijection
  for (int r = 0; r < 8; r++) hk[r] = 0x9E3779B9u * (r + 1) ^ 0x5bd1e995u;
  for (int k = 0; k < 16; k++) for (int j = 0; j < 4; j++) hseg[k][j] = (float)((k * 4 + j) % 7) * 0.25f - 0.5f;
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  CK(cudaMemcpyToSymbolAsync(sbox, hs, sizeof hs, 0, cudaMemcpyHostToDevice, st));
  CK(cudaMemcpyToSymbolAsync(roundKey, hk, 4 * sizeof(unsigned), 0, cudaMemcpyHostToDevice, st));
  CK(cudaMemcpyToSymbolAsync(roundKey, hk + 4, 4 * sizeof(unsigned), 4 * sizeof(unsigned), cudaMemcpyHostToDevice, st));
  CK(cudaMemcpyToSymbolAsync(seg, hseg, sizeof hseg, 0, cudaMemcpyHostToDevice, st));
  unsigned *hitsPtr; size_t hitsSize = 0;
  CK(cudaGetSymbolAddress((void **)&hitsPtr, sboxHits));
  CK(cudaGetSymbolSize(&hitsSize, sboxHits));
  CK(cudaMemsetAsync(hitsPtr, 0, hitsSize, st));
  unsigned *hw = (unsigned *)malloc(N * 4), *dw;
  float *hx = (float *)malloc(M * 4), *dx;
  for (int i = 0; i < N; i++) hw[i] = (unsigned)i * 0x01000193u + 7;
  for (int i = 0; i < M; i++) hx[i] = (float)((i * 389) % M) / M;
  CK(cudaMalloc(&dw, N * 4)); CK(cudaMalloc(&dx, M * 4));
  CK(cudaMemcpyAsync(dw, hw, N * 4, cudaMemcpyHostToDevice, st));
  CK(cudaMemcpyAsync(dx, hx, M * 4, cudaMemcpyHostToDevice, st));
  cipher<<<N / 256, 256, 0, st>>>(dw, N);
  piecewise<<<M / 128, 128, 0, st>>>(dx, M);
  unsigned *gw = (unsigned *)malloc(N * 4);
  float *gp = (float *)malloc(M * 4);
  CK(cudaMemcpyAsync(gw, dw, N * 4, cudaMemcpyDeviceToHost, st));
  CK(cudaMemcpyFromSymbolAsync(gp, polyOut, M / 2 * 4, 0, cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpyFromSymbol(gp + M / 2, polyOut, M / 2 * 4, M / 2 * 4));
  unsigned gotHits = 0;
  CK(cudaMemcpyFromSymbol(&gotHits, sboxHits, 4));
  bool ok = true; int bad = 0; unsigned wantHits = 0; unsigned long long check = 0;
  for (int i = 0; i < N; i++) {
    unsigned v = hw[i];
    for (int r = 0; r < 8; r++) {
      v ^= hk[r];
      unsigned b0 = hs[v & 255], b1 = hs[(v >> 8) & 255], b2 = hs[(v >> 16) & 255], b3 = hs[v >> 24];
      wantHits += (b0 == 0) + (b1 == 0) + (b2 == 0) + (b3 == 0);
      v = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
      v = rotl(v, 5) ^ rotl(v, 17);
    }
    if (gw[i] != v && bad++ < 5) printf("word %d got %08x want %08x\n", i, gw[i], v);
    check += gw[i];
  }
  double psum = 0;
  for (int i = 0; i < M; i++) {
    float t = hx[i];
    int k = (int)(t * 16.0f); k = k < 0 ? 0 : k > 15 ? 15 : k;
    float u = t * 16.0f - k;
    float want = ((hseg[k][3] * u + hseg[k][2]) * u + hseg[k][1]) * u + hseg[k][0];
    if (fabsf(gp[i] - want) > 1e-5f && bad++ < 10) printf("poly %d got %f want %f\n", i, gp[i], want);
    psum += gp[i];
  }
  if (gotHits != wantHits) { printf("hits %u want %u\n", gotHits, wantHits); ok = false; }
  ok = ok && bad == 0;
  printf("symbol size %zu, s-box zeros %u, checksum %llu, poly sum %.4f\n", hitsSize, gotHits, check, psum);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
