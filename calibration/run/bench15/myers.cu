// Approximate pattern matching by Myers' bit-vector algorithm: 16 DNA patterns of 20 to 64
// letters against a 2^18-letter text, each match ending where the edit distance is at most k
// (k = length / 8 + 1). A thread a (pattern, 2,048-letter chunk) runs the 64-bit vertical-delta
// recurrence (an addition carrying across the word, shifts, a score moved by the top bit) from
// a warm-up of m + k letters before its chunk, the pattern's letter masks in shared memory;
// matches are counted by atomicAdd and the first by atomicMin. A second kernel, a warp a pattern
// and chunk, counts exact occurrences by __ballot_sync over the warp's 32 starting positions.
// Checked against the host's edit-distance table and a direct search. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define TEXT (1 << 18)
#define PATS 16
#define CHUNK 2048
#define MAXM 64

__global__ void myers(const unsigned char *text, const unsigned long long *peq, const int *len,
                      unsigned *count, int *first) {
  __shared__ unsigned long long sPeq[PATS * 4];
  for (int i = threadIdx.x; i < PATS * 4; i += blockDim.x) sPeq[i] = peq[i];
  __syncthreads();
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int p = id % PATS, chunk = id / PATS;
  if (chunk >= TEXT / CHUNK) return;
  int m = len[p], k = m / 8 + 1;
  unsigned long long pv = ~0ull, mv = 0, top = 1ull << (m - 1);
  int score = m, start = chunk * CHUNK, from = max(0, start - m - k), end = start + CHUNK;
  unsigned found = 0; int firstHere = 0x7fffffff;
  for (int j = from; j < end; j++) {
    unsigned long long eq = sPeq[p * 4 + text[j]];
    unsigned long long xv = eq | mv;
    unsigned long long xh = (((eq & pv) + pv) ^ pv) | eq;
    unsigned long long ph = mv | ~(xh | pv), mh = pv & xh;
    if (ph & top) score++;
    else if (mh & top) score--;
    ph <<= 1; mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (j >= start && score <= k) { found++; firstHere = min(firstHere, j); }
  }
  if (found) { atomicAdd(&count[p], found); atomicMin(&first[p], firstHere); }
}

__global__ void exact(const unsigned char *text, const unsigned char *pats, const int *len, unsigned *count) {
  int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int p = w % PATS, chunk = w / PATS, m = len[p];
  unsigned total = 0;
  for (int base = chunk * CHUNK; base < (chunk + 1) * CHUNK; base += 32) {
    int at = base + lane;
    bool hit = at + m <= TEXT;
    for (int i = 0; hit && i < m; i++) hit = text[at + i] == pats[p * MAXM + i];
    total += __popc(__ballot_sync(0xffffffffu, hit));
  }
  if (lane == 0 && total) atomicAdd(&count[p], total);
}

int main() {
  std::vector<unsigned char> text(TEXT), pats(PATS * MAXM, 0);
  std::vector<int> len(PATS);
  unsigned s = 8080;
  auto rnd = [&]() { s = s * 1103515245u + 12345u; return (s >> 16) & 0x7fff; };
  for (int i = 0; i < TEXT; i++) text[i] = rnd() & 3;
  for (int p = 0; p < PATS; p++) {
    len[p] = 20 + (p * 37) % 45;
    int at = rnd() * 7 % (TEXT - MAXM);
    for (int i = 0; i < len[p]; i++) pats[p * MAXM + i] = text[at + i];
    if (p % 3 == 1) pats[p * MAXM + len[p] / 2] ^= 1;  // one substitution
  }
  // plant copies with small edits
  for (int c = 0; c < 40; c++) {
    int p = c % PATS, at = (rnd() * 13 + c * 4099) % (TEXT - 2 * MAXM);
    for (int i = 0; i < len[p]; i++) text[at + i] = pats[p * MAXM + i];
    if (c % 4 == 2) text[at + 3] ^= 2;
  }
  std::vector<unsigned long long> peq(PATS * 4, 0);
  for (int p = 0; p < PATS; p++) for (int i = 0; i < len[p]; i++) peq[p * 4 + pats[p * MAXM + i]] |= 1ull << i;
  // host: edit-distance columns
  std::vector<unsigned> hcount(PATS, 0), hexact(PATS, 0); std::vector<int> hfirst(PATS, 0x7fffffff);
  for (int p = 0; p < PATS; p++) {
    int m = len[p], k = m / 8 + 1;
    std::vector<int> col(m + 1), prev(m + 1);
    for (int i = 0; i <= m; i++) prev[i] = i;
    for (int j = 0; j < TEXT; j++) {
      col[0] = 0;
      for (int i = 1; i <= m; i++)
        col[i] = std::min({prev[i - 1] + (pats[p * MAXM + i - 1] != text[j]), prev[i] + 1, col[i - 1] + 1});
      if (col[m] <= k) { hcount[p]++; hfirst[p] = std::min(hfirst[p], j); }
      std::swap(col, prev);
    }
    for (int j = 0; j + m <= TEXT; j++) {
      int i = 0; while (i < m && text[j + i] == pats[p * MAXM + i]) i++;
      hexact[p] += i == m;
    }
  }
  unsigned char *dText, *dPats; unsigned long long *dPeq; int *dLen, *dFirst; unsigned *dCount, *dExact;
  CK(cudaMalloc(&dText, TEXT)); CK(cudaMalloc(&dPats, PATS * MAXM)); CK(cudaMalloc(&dPeq, PATS * 4 * 8));
  CK(cudaMalloc(&dLen, PATS * 4)); CK(cudaMalloc(&dFirst, PATS * 4)); CK(cudaMalloc(&dCount, PATS * 4)); CK(cudaMalloc(&dExact, PATS * 4));
  CK(cudaMemcpy(dText, text.data(), TEXT, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPats, pats.data(), PATS * MAXM, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPeq, peq.data(), PATS * 4 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dLen, len.data(), PATS * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dFirst, 0x7f, PATS * 4)); CK(cudaMemset(dCount, 0, PATS * 4)); CK(cudaMemset(dExact, 0, PATS * 4));
  int threads = PATS * (TEXT / CHUNK);
  myers<<<(threads + 127) / 128, 128>>>(dText, dPeq, dLen, dCount, dFirst);
  exact<<<threads * 32 / 256, 256>>>(dText, dPats, dLen, dExact);
  CK(cudaGetLastError());
  std::vector<unsigned> count(PATS), ex(PATS); std::vector<int> first(PATS);
  CK(cudaMemcpy(count.data(), dCount, PATS * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ex.data(), dExact, PATS * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(first.data(), dFirst, PATS * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int p = 0; p < PATS; p++) {
    printf("pattern %2d (%2d letters, k %d): %u end positions, first %d, %u exact\n", p, len[p], len[p] / 8 + 1, count[p],
           count[p] ? first[p] : -1, ex[p]);
    ok = ok && count[p] == hcount[p] && ex[p] == hexact[p] && (count[p] == 0 || first[p] == hfirst[p]);
  }
  printf("myers: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
