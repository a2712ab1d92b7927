// Cuckoo hashing with two tables of 64-bit entries (key in the high word, value in the low): a
// thread a key inserts by atomicExch into its first table's slot and carries whatever it evicted
// to that entry's other table (a data-dependent chain of at most 48 exchanges), a full chain going
// to a stash by atomicAdd; then lookups of present and absent keys probing both tables and the
// stash, the hits counted by __ballot_sync/__popc and one atomicAdd a warp, their values summed by
// a 64-bit atomicAdd a warp. Which table a key ends in depends on the order of the exchanges;
// what is found does not. Checked against the host's key set.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <unordered_map>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int LOGS = 15, S = 1 << LOGS, MAXCHAIN = 48, STASH = 256;

__device__ __forceinline__ unsigned slotOf(unsigned key, int t) {
  return t == 0 ? (key * 0x9E3779B1u) >> (32 - LOGS) : ((key ^ 0x5bd1e995u) * 0x85EBCA6Bu) >> (32 - LOGS);
}

__global__ void insert(const unsigned *keys, const unsigned *vals, int n, unsigned long long *tab,
                       unsigned long long *stash, unsigned *nstash, unsigned *kicks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long e = ((unsigned long long)keys[i] << 32) | vals[i];
  int t = 0, it = 0;
  for (; it < MAXCHAIN; ++it) {
    const unsigned long long old = atomicExch(&tab[t * S + slotOf((unsigned)(e >> 32), t)], e);
    if (old == 0ull) break;
    e = old;
    t ^= 1;
  }
  if (it == MAXCHAIN) {
    const unsigned at = atomicAdd(nstash, 1u);
    if (at < STASH) stash[at] = e;
  }
  atomicAdd(kicks, (unsigned)it);
}

__global__ void lookup(const unsigned *q, int n, const unsigned long long *tab, const unsigned long long *stash,
                       const unsigned *nstash, unsigned *out, unsigned *hits, unsigned long long *sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = 0;
  bool found = false;
  if (i < n) {
    const unsigned key = q[i];
    for (int t = 0; t < 2 && !found; ++t) {
      const unsigned long long e = tab[t * S + slotOf(key, t)];
      if ((unsigned)(e >> 32) == key) { found = true; v = (unsigned)e; }
    }
    const unsigned ns = min(*nstash, (unsigned)STASH);
    for (unsigned s = 0; s < ns && !found; ++s)
      if ((unsigned)(stash[s] >> 32) == key) { found = true; v = (unsigned)stash[s]; }
    out[i] = v;
  }
  const unsigned b = __ballot_sync(0xffffffffu, found);
  unsigned long long x = v;
  for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  if ((threadIdx.x & 31) == 0 && b) {
    atomicAdd(hits, (unsigned)__popc(b));
    atomicAdd(sum, x);
  }
}

int main() {
  const int n = 26000, nq = 40000;
  unsigned st = 8675309u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  std::unordered_map<unsigned, unsigned> ref;
  std::vector<unsigned> keys, vals;
  while ((int)keys.size() < n) {
    unsigned k = rnd();
    if (k == 0 || ref.count(k)) continue;
    ref[k] = (unsigned)keys.size() * 7u + 1u;
    keys.push_back(k); vals.push_back(ref[k]);
  }
  std::vector<unsigned> q(nq);
  for (int i = 0; i < nq; ++i) q[i] = (i % 3 == 2) ? (rnd() | 1u) * 2654435761u : keys[(i * 7919u) % n];
  unsigned *dK, *dV, *dQ, *dO, *dN, *dKicks, *dH; unsigned long long *dT, *dS, *dSum;
  CK(cudaMalloc(&dK, n * 4)); CK(cudaMalloc(&dV, n * 4)); CK(cudaMalloc(&dQ, nq * 4)); CK(cudaMalloc(&dO, nq * 4));
  CK(cudaMalloc(&dT, 2 * S * 8)); CK(cudaMalloc(&dS, STASH * 8)); CK(cudaMalloc(&dN, 4)); CK(cudaMalloc(&dKicks, 4));
  CK(cudaMalloc(&dH, 4)); CK(cudaMalloc(&dSum, 8));
  CK(cudaMemcpy(dK, keys.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dV, vals.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dQ, q.data(), nq * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dT, 0, 2 * S * 8)); CK(cudaMemset(dN, 0, 4)); CK(cudaMemset(dKicks, 0, 4));
  CK(cudaMemset(dH, 0, 4)); CK(cudaMemset(dSum, 0, 8));
  insert<<<(n + 255) / 256, 256>>>(dK, dV, n, dT, dS, dN, dKicks);
  lookup<<<(nq + 255) / 256, 256>>>(dQ, nq, dT, dS, dN, dO, dH, dSum);
  CK(cudaGetLastError());
  std::vector<unsigned> out(nq), tabKeys;
  std::vector<unsigned long long> T(2 * S);
  unsigned hits, ns; unsigned long long sum;
  CK(cudaMemcpy(out.data(), dO, nq * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(T.data(), dT, 2 * S * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hits, dH, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&ns, dN, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&sum, dSum, 8, cudaMemcpyDeviceToHost));
  int wrong = ns > STASH;
  unsigned wantHits = 0; unsigned long long wantSum = 0;
  for (int i = 0; i < nq; ++i) {
    auto it = ref.find(q[i]);
    const unsigned want = it == ref.end() ? 0u : it->second;
    wantHits += it != ref.end(); wantSum += want;
    wrong += out[i] != want;
  }
  int stored = 0;
  for (int s = 0; s < 2 * S; ++s) {
    if (!T[s]) continue;
    ++stored;
    auto it = ref.find((unsigned)(T[s] >> 32));
    const unsigned key = (unsigned)(T[s] >> 32);
    const unsigned home = s < S ? (key * 0x9E3779B1u) >> (32 - LOGS) : ((key ^ 0x5bd1e995u) * 0x85EBCA6Bu) >> (32 - LOGS);
    wrong += it == ref.end() || it->second != (unsigned)T[s] || home != (unsigned)(s % S);
  }
  wrong += stored + (int)ns != n;
  wrong += hits != wantHits || sum != wantSum;
  printf("%d keys in 2 x %d slots, %d queries: %u found, value sum %llu, all stored %s, wrong %d\n", n, S, nq, hits, sum,
         stored + (int)ns == n ? "yes" : "no", wrong);
  printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
