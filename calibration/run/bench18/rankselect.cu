// A rank/select directory over a bit vector of 2^22 bits with runs of empty, full and sparse
// words: a warp a 1,024-bit superblock counts its words by __popc, scans them by __shfl_up_sync
// and totals them by __reduce_add_sync; one block scans the 4,096 superblock totals; rank queries
// (a superblock offset, a word offset and a masked __popc); select queries by two binary
// searches and an in-word loop clearing the lowest bits; every set bit's position written by a
// warp a superblock through __ballot_sync and __popc of the lanes below. Checked on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int NW = 1 << 17;   // words
constexpr int NS = NW / 32;   // superblocks of 32 words

__global__ void sbCount(const unsigned *__restrict__ bits, unsigned *__restrict__ wOff, unsigned *__restrict__ sbTot) {
  const int lane = threadIdx.x & 31;
  const int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (s >= NS) return;
  const unsigned c = __popc(bits[s * 32 + lane]);
  unsigned inc = c;
  for (int o = 1; o < 32; o <<= 1) {
    unsigned v = __shfl_up_sync(0xffffffffu, inc, o);
    if (lane >= o) inc += v;
  }
  wOff[s * 32 + lane] = inc - c;
  const unsigned tot = __reduce_add_sync(0xffffffffu, c);
  if (lane == 0) sbTot[s] = tot;
}

// one block of 1,024 threads, four superblocks a thread
__global__ void sbScan(const unsigned *__restrict__ sbTot, unsigned *__restrict__ sbOff, unsigned *__restrict__ total) {
  __shared__ unsigned warpSum[32];
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  unsigned v[4], s = 0;
  for (int i = 0; i < 4; ++i) { v[i] = sbTot[t * 4 + i]; s += v[i]; }
  unsigned inc = s;
  for (int o = 1; o < 32; o <<= 1) {
    unsigned u = __shfl_up_sync(0xffffffffu, inc, o);
    if (lane >= o) inc += u;
  }
  if (lane == 31) warpSum[w] = inc;
  __syncthreads();
  if (w == 0) {
    unsigned x = warpSum[lane], y = x;
    for (int o = 1; o < 32; o <<= 1) {
      unsigned u = __shfl_up_sync(0xffffffffu, y, o);
      if (lane >= o) y += u;
    }
    warpSum[lane] = y - x;
    if (lane == 31) *total = y;
  }
  __syncthreads();
  unsigned run = warpSum[w] + inc - s;
  for (int i = 0; i < 4; ++i) { sbOff[t * 4 + i] = run; run += v[i]; }
}

__global__ void rank1(const unsigned *__restrict__ bits, const unsigned *__restrict__ wOff, const unsigned *__restrict__ sbOff,
                      const unsigned *__restrict__ total, const unsigned *__restrict__ q, unsigned *__restrict__ r, int nq) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  const unsigned p = q[i];
  if (p >= 32u * NW) { r[i] = *total; return; }
  const unsigned w = p >> 5, b = p & 31;
  r[i] = sbOff[w >> 5] + wOff[w] + __popc(bits[w] & ((1u << b) - 1u));
}

__global__ void select1(const unsigned *__restrict__ bits, const unsigned *__restrict__ wOff, const unsigned *__restrict__ sbOff,
                        const unsigned *__restrict__ j, unsigned *__restrict__ pos, int nq) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  const unsigned k = j[i];
  int lo = 0, hi = NS - 1;   // last superblock whose offset is <= k
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (sbOff[mid] <= k) lo = mid; else hi = mid - 1;
  }
  const unsigned rest = k - sbOff[lo];
  int a = lo * 32, b = lo * 32 + 31;   // last word of it whose offset is <= rest
  while (a < b) {
    int mid = (a + b + 1) >> 1;
    if (wOff[mid] <= rest) a = mid; else b = mid - 1;
  }
  unsigned word = bits[a];
  for (unsigned n = rest - wOff[a]; n; --n) word &= word - 1;
  pos[i] = a * 32u + (unsigned)(__ffs(word) - 1);
}

__global__ void positions(const unsigned *__restrict__ bits, const unsigned *__restrict__ wOff, const unsigned *__restrict__ sbOff,
                          unsigned *__restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (s >= NS) return;
  const unsigned base = sbOff[s];
  for (int w = s * 32; w < s * 32 + 32; ++w) {
    const bool set = (bits[w] >> lane) & 1u;
    const unsigned m = __ballot_sync(0xffffffffu, set);
    if (m == 0) continue;
    if (set) out[base + wOff[w] + __popc(m & ((1u << lane) - 1u))] = w * 32u + lane;
  }
}

int main() {
  std::vector<unsigned> bits(NW);
  unsigned x = 2463534242u;
  auto next = [&]() { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
  for (int w = 0; w < NW; ++w) {
    int region = (w >> 9) % 6;
    unsigned a = next(), b = next(), c = next();
    switch (region) {
      case 0: bits[w] = 0; break;
      case 1: bits[w] = a & b & c; break;             // sparse
      case 2: bits[w] = a; break;                     // half
      case 3: bits[w] = 0xffffffffu; break;           // full
      case 4: bits[w] = (a & b & c & next()) & ((w & 7) ? 0u : ~0u); break;   // very sparse
      default: bits[w] = a | b; break;               // dense
    }
  }
  std::vector<unsigned> pre(NW + 1, 0);
  for (int w = 0; w < NW; ++w) pre[w + 1] = pre[w] + __builtin_popcount(bits[w]);
  const unsigned total = pre[NW];
  const int NQ = 1 << 18;
  std::vector<unsigned> q(NQ), jq(NQ);
  for (int i = 0; i < NQ; ++i) { q[i] = next() % (32u * NW + 1); jq[i] = next() % total; }
  q[0] = 32u * NW; q[1] = 0;

  unsigned *dBits, *dW, *dT, *dO, *dTot, *dQ, *dR, *dJ, *dP, *dAll;
  CK(cudaMalloc(&dBits, NW * 4)); CK(cudaMalloc(&dW, NW * 4)); CK(cudaMalloc(&dT, NS * 4)); CK(cudaMalloc(&dO, NS * 4));
  CK(cudaMalloc(&dTot, 4)); CK(cudaMalloc(&dQ, NQ * 4)); CK(cudaMalloc(&dR, NQ * 4)); CK(cudaMalloc(&dJ, NQ * 4));
  CK(cudaMalloc(&dP, NQ * 4)); CK(cudaMalloc(&dAll, total * 4));
  CK(cudaMemcpy(dBits, bits.data(), NW * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dQ, q.data(), NQ * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dJ, jq.data(), NQ * 4, cudaMemcpyHostToDevice));
  sbCount<<<NS * 32 / 256, 256>>>(dBits, dW, dT);
  sbScan<<<1, 1024>>>(dT, dO, dTot);
  rank1<<<NQ / 256, 256>>>(dBits, dW, dO, dTot, dQ, dR, NQ);
  select1<<<NQ / 128, 128>>>(dBits, dW, dO, dJ, dP, NQ);
  positions<<<NS * 32 / 128, 128>>>(dBits, dW, dO, dAll);
  CK(cudaGetLastError());
  std::vector<unsigned> r(NQ), p(NQ), all(total);
  unsigned tot;
  CK(cudaMemcpy(&tot, dTot, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dR, NQ * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p.data(), dP, NQ * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(all.data(), dAll, total * 4, cudaMemcpyDeviceToHost));
  int bad = tot != total;
  unsigned long long hr = 0, hp = 0;
  std::vector<unsigned> posh;
  posh.reserve(total);
  for (unsigned i = 0; i < 32u * NW; ++i) if ((bits[i >> 5] >> (i & 31)) & 1) posh.push_back(i);
  for (int i = 0; i < NQ; ++i) {
    unsigned pq = q[i];
    unsigned want = pq >= 32u * NW ? total : pre[pq >> 5] + __builtin_popcount(bits[pq >> 5] & ((1u << (pq & 31)) - 1u));
    if (r[i] != want) bad++;
    if (p[i] != posh[jq[i]]) bad++;
    hr = hr * 31 + r[i]; hp = hp * 37 + p[i];
  }
  for (unsigned i = 0; i < total; ++i) if (all[i] != posh[i]) { bad++; break; }
  printf("rankselect: %u set bits of %u, rank hash %016llx, select hash %016llx, %d mismatches\n", total, 32u * NW, hr, hp, bad);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
