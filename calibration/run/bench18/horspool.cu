// Boyer-Moore-Horspool search of 8 patterns (3 to 24 letters) in a 1 MB text over an 8-letter
// skewed alphabet: a block row a pattern, the pattern and its 256-entry shift table in shared
// memory (the table filled in order by one thread), a thread a 256-position chunk whose windows
// move by the shift of the text byte under the window's end (a data-dependent loop), each window
// compared from its end with an early exit; counts by atomicAdd, the first match by atomicMin.
// Checked against a naive host count.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int CHUNK = 256, MAXP = 32;

__global__ void horspool(const unsigned char *__restrict__ text, int n, const unsigned char *__restrict__ pats,
                         const int *__restrict__ plen, unsigned *__restrict__ count, int *__restrict__ first) {
  __shared__ int shift[256];
  __shared__ unsigned char pat[MAXP];
  const int pi = blockIdx.y, m = plen[pi];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) shift[i] = m;
  if (threadIdx.x < MAXP) pat[threadIdx.x] = pats[pi * MAXP + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = 0; i < m - 1; ++i) shift[pat[i]] = m - 1 - i;
  __syncthreads();
  const int start = (blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
  if (start > n - m) return;
  const int last = min(start + CHUNK - 1, n - m);
  unsigned found = 0;
  int firstHere = 0x7fffffff;
  for (int pos = start; pos <= last;) {
    const unsigned char endc = text[pos + m - 1];
    if (endc == pat[m - 1]) {
      int j = m - 2;
      while (j >= 0 && text[pos + j] == pat[j]) --j;
      if (j < 0) { found++; firstHere = min(firstHere, pos); }
    }
    pos += shift[endc];
  }
  if (found) {
    atomicAdd(&count[pi], found);
    atomicMin(&first[pi], firstHere);
  }
}

int main() {
  const int n = 1 << 20, NP = 8;
  std::vector<unsigned char> text(n);
  unsigned s = 1234567u;
  auto rnd = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; };
  for (int i = 0; i < n; ++i) {
    unsigned r = rnd() & 15;   // skewed: a and b common
    text[i] = "aaaabbbbccddefgh"[r];
  }
  const int lens[NP] = {3, 4, 5, 7, 9, 12, 16, 24};
  std::vector<unsigned char> pats(NP * MAXP, 0);
  for (int p = 0; p < NP; ++p) {
    int at = (int)(rnd() % (n - 64));
    for (int k = 0; k < lens[p]; ++k) pats[p * MAXP + k] = text[at + k];
    if (p == 5) pats[p * MAXP + 6] = 'h';   // one rarer pattern
  }
  for (int rep = 0; rep < 40; ++rep) {   // plant copies of the long patterns
    int p = 6 + rep % 2, at = (int)(rnd() % (n - 64));
    memcpy(&text[at], &pats[p * MAXP], lens[p]);
  }
  unsigned char *dT, *dP; int *dL, *dF; unsigned *dC;
  CK(cudaMalloc(&dT, n)); CK(cudaMalloc(&dP, pats.size())); CK(cudaMalloc(&dL, NP * 4));
  CK(cudaMalloc(&dC, NP * 4)); CK(cudaMalloc(&dF, NP * 4));
  CK(cudaMemcpy(dT, text.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dP, pats.data(), pats.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dL, lens, NP * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC, 0, NP * 4)); CK(cudaMemset(dF, 0x7f, NP * 4));
  const int threads = (n + CHUNK - 1) / CHUNK;
  horspool<<<dim3((threads + 127) / 128, NP), 128>>>(dT, n, dP, dL, dC, dF);
  CK(cudaGetLastError());
  unsigned C[NP]; int F[NP];
  CK(cudaMemcpy(C, dC, NP * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(F, dF, NP * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int p = 0; p < NP; ++p) {
    unsigned c = 0; int f = 0x7f7f7f7f;
    for (int i = 0; i + lens[p] <= n; ++i)
      if (!memcmp(&text[i], &pats[p * MAXP], lens[p])) { c++; if (f == 0x7f7f7f7f) f = i; }
    bad += c != C[p] || f != F[p];
    printf("pattern %d (%d letters %.*s): %u matches, first at %d\n", p, lens[p], lens[p], (const char *)&pats[p * MAXP], C[p], F[p]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
