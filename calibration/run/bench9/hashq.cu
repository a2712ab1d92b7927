// Hash-table queries: an open-addressing table built by the host (linear probing, a multiplicative
// mix of the key, empty slots 0xffffffff), the GPU looking up keys present and absent (a probe loop
// whose length depends on the data, an early exit on the key or an empty slot); the same table
// probed quadratically; a Bloom filter of 4 hashes tested with early exits; a count of the hits by
// a shared integer atomic a block and one global atomic a block.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define EMPTY 0xffffffffu

__host__ __device__ inline unsigned mix(unsigned k) {
  k ^= k >> 16; k *= 0x7feb352du; k ^= k >> 15; k *= 0x846ca68bu; k ^= k >> 16; return k;
}

__global__ void lookupLinear(const unsigned *keys, const unsigned *vals, unsigned mask,
                             const unsigned *q, unsigned *res, int *probes, int *hits, int n) {
  __shared__ int blockHits;
  if (threadIdx.x == 0) blockHits = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned k = q[i], s = mix(k) & mask, r = EMPTY;
    int p = 1;
    while (true) {
      unsigned t = keys[s];
      if (t == k) { r = vals[s]; break; }
      if (t == EMPTY) break;
      s = (s + 1) & mask; ++p;
    }
    res[i] = r; probes[i] = p;
    if (r != EMPTY) atomicAdd(&blockHits, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(hits, blockHits);
}

__global__ void lookupQuad(const unsigned *keys, const unsigned *vals, unsigned mask,
                           const unsigned *q, unsigned *res, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = q[i], h = mix(k), r = EMPTY;
  for (unsigned j = 0; j <= mask; ++j) {
    unsigned s = (h + j * (j + 1) / 2) & mask;
    unsigned t = keys[s];
    if (t == k) { r = vals[s]; break; }
    if (t == EMPTY) break;
  }
  res[i] = r;
}

__global__ void bloomK(const unsigned *bits, unsigned nbits, const unsigned *q, unsigned char *maybe, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = q[i], h1 = mix(k), h2 = mix(k ^ 0x9e3779b9u) | 1u;
  unsigned char m = 1;
  for (int j = 0; j < 4; ++j) {
    unsigned b = (h1 + j * h2) % nbits;
    if (!((bits[b >> 5] >> (b & 31)) & 1)) { m = 0; break; }
  }
  maybe[i] = m;
}

int main() {
  const unsigned cap = 4096, mask = cap - 1;
  const int nk = 2900, nq = 5000;
  std::vector<unsigned> lk(cap, EMPTY), qk(cap, EMPTY), vals(cap, 0), q(nq);
  std::vector<unsigned> ins(nk);
  unsigned s = 31337;
  for (int i = 0; i < nk; ++i) { s = s * 1664525u + 1013904223u; ins[i] = (s >> 2) | 1u; }
  int dup = 0;
  for (int i = 0; i < nk; ++i) {
    unsigned k = ins[i], p = mix(k) & mask;
    while (lk[p] != EMPTY && lk[p] != k) p = (p + 1) & mask;
    if (lk[p] == k) { ++dup; continue; }
    lk[p] = k; vals[p] = (unsigned)i * 7u;
  }
  // the quadratic table keeps its own slots and values
  std::vector<unsigned> qv(cap, 0);
  for (int i = 0; i < nk; ++i) {
    unsigned k = ins[i], h = mix(k);
    for (unsigned j = 0; j <= mask; ++j) {
      unsigned p = (h + j * (j + 1) / 2) & mask;
      if (qk[p] == k) break;
      if (qk[p] == EMPTY) { qk[p] = k; qv[p] = (unsigned)i * 7u; break; }
    }
  }
  const unsigned nbits = 40000;
  std::vector<unsigned> bits((nbits + 31) / 32, 0u);
  for (int i = 0; i < nk; i += 2) {
    unsigned k = ins[i], h1 = mix(k), h2 = mix(k ^ 0x9e3779b9u) | 1u;
    for (int j = 0; j < 4; ++j) { unsigned b = (h1 + j * h2) % nbits; bits[b >> 5] |= 1u << (b & 31); }
  }
  for (int i = 0; i < nq; ++i) {
    s = s * 1664525u + 1013904223u;
    q[i] = (i % 3 == 0) ? (s >> 2) | 1u : ins[(s >> 8) % nk];
  }
  unsigned *dk, *dv, *dqk, *dqv, *dq, *dr, *dr2, *db; int *dp, *dh; unsigned char *dm;
  CK(cudaMalloc(&dk, cap * 4)); CK(cudaMalloc(&dv, cap * 4)); CK(cudaMalloc(&dqk, cap * 4)); CK(cudaMalloc(&dqv, cap * 4));
  CK(cudaMalloc(&dq, nq * 4)); CK(cudaMalloc(&dr, nq * 4)); CK(cudaMalloc(&dr2, nq * 4)); CK(cudaMalloc(&dp, nq * 4));
  CK(cudaMalloc(&dh, 4)); CK(cudaMalloc(&db, bits.size() * 4)); CK(cudaMalloc(&dm, nq));
  CK(cudaMemcpy(dk, lk.data(), cap * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, vals.data(), cap * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dqk, qk.data(), cap * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dqv, qv.data(), cap * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dq, q.data(), nq * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, bits.data(), bits.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dh, 0, 4));
  lookupLinear<<<(nq + 255) / 256, 256>>>(dk, dv, mask, dq, dr, dp, dh, nq);
  lookupQuad<<<(nq + 127) / 128, 128>>>(dqk, dqv, mask, dq, dr2, nq);
  bloomK<<<(nq + 191) / 192, 192>>>(db, nbits, dq, dm, nq);
  CK(cudaGetLastError());
  std::vector<unsigned> r(nq), r2(nq); std::vector<int> pr(nq); std::vector<unsigned char> m(nq); int hits;
  CK(cudaMemcpy(r.data(), dr, nq * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r2.data(), dr2, nq * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pr.data(), dp, nq * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(m.data(), dm, nq, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hits, dh, 4, cudaMemcpyDeviceToHost));
  int bad = 0, found = 0, maybe = 0; long long probes = 0;
  for (int i = 0; i < nq; ++i) {
    unsigned k = q[i], p = mix(k) & mask, want = EMPTY, want2 = EMPTY;
    int np = 1;
    while (lk[p] != EMPTY && lk[p] != k) { p = (p + 1) & mask; ++np; }
    if (lk[p] == k) want = vals[p];
    unsigned h = mix(k);
    for (unsigned j = 0; j <= mask; ++j) {
      unsigned p2 = (h + j * (j + 1) / 2) & mask;
      if (qk[p2] == k) { want2 = qv[p2]; break; }
      if (qk[p2] == EMPTY) break;
    }
    bool inb = true;
    unsigned h1 = mix(k), h2 = mix(k ^ 0x9e3779b9u) | 1u;
    for (int j = 0; j < 4; ++j) { unsigned b = (h1 + j * h2) % nbits; if (!((bits[b >> 5] >> (b & 31)) & 1)) { inb = false; break; } }
    bad += r[i] != want || r2[i] != want2 || pr[i] != np || m[i] != (unsigned char)inb;
    found += want != EMPTY; maybe += inb; probes += np;
  }
  bad += hits != found;
  printf("hashq: %d duplicates, %d of %d found, %lld probes, %d maybe in the filter\n", dup, found, nq, probes, maybe);
  printf("hashq %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
