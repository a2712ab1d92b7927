// A nonce search in the shape of a proof-of-work miner: each thread hashes candidate nonces with a
// SHA-256-style compression (64 rounds, message schedule, round constants in __constant__ memory
// made by a generator on the host) of a 16-word header read from a job descriptor in global
// memory, and keeps the lowest nonce whose hash is under the job's target by atomicMin on a result
// word. The loop bound (job->count) and the header are re-read every round because the atomic
// may write anywhere the compiler knows of.
//   search (job, best)        : the result word in its own allocation
//   search (job, &job->best)  : the result word inside the job's allocation
//   searchStop (job, best)    : also stops once a lower nonce is known (reads the result word:
//                               the loop waits on the other threads' atomics)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Job {
  unsigned header[16];
  unsigned count;
  unsigned target;
  unsigned best;
  unsigned pad;
};

__constant__ unsigned K[64];

__host__ __device__ inline unsigned rotr(unsigned x, int n) { return (x >> n) | (x << (32 - n)); }

__host__ __device__ inline unsigned compress(const unsigned *hdr, unsigned nonce, const unsigned *k) {
  unsigned w[16];
#pragma unroll
  for (int i = 0; i < 16; i++) w[i] = hdr[i];
  w[3] ^= nonce;
  unsigned a = 0x6a09e667u, b = 0xbb67ae85u, c = 0x3c6ef372u, d = 0xa54ff53au;
  unsigned e = 0x510e527fu, f = 0x9b05688cu, g = 0x1f83d9abu, h = 0x5be0cd19u;
#pragma unroll
  for (int i = 0; i < 64; i++) {
    if (i >= 16) {
      unsigned x = w[(i + 1) & 15], y = w[(i + 14) & 15];
      unsigned s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
      unsigned s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10);
      w[i & 15] += s0 + s1 + w[(i + 9) & 15];
    }
    unsigned S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    unsigned ch = (e & f) ^ (~e & g);
    unsigned t1 = h + S1 + ch + k[i] + w[i & 15];
    unsigned S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    unsigned mj = (a & b) ^ (a & c) ^ (b & c);
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + S0 + mj;
  }
  return a + 0x6a09e667u;
}

__global__ void search(const Job *job, unsigned *best) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < job->count; n += stride) {
    if (compress(job->header, n, K) < job->target) atomicMin(best, n);
  }
}

__global__ void searchStop(const Job *job, unsigned *best) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < job->count && n < *best; n += stride) {
    if (compress(job->header, n, K) < job->target) atomicMin(best, n);
  }
}

int main() {
  unsigned k[64];
  unsigned s = 0x2545f491u;
  for (int i = 0; i < 64; i++) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    k[i] = s;
  }
  cudaMemcpyToSymbol(K, k, sizeof k);
  Job job;
  for (int i = 0; i < 16; i++) job.header[i] = 0x9e3779b9u * (i + 1) ^ 0x7f4a7c15u;
  job.count = 1 << 16;
  job.target = 0x00200000u;
  job.best = 0xffffffffu;
  job.pad = 0;
  // host answer
  unsigned want = 0xffffffffu, hits = 0;
  for (unsigned n = 0; n < job.count; n++)
    if (compress(job.header, n, k) < job.target) { hits++; if (n < want) want = n; }
  Job *dj;
  unsigned *db;
  cudaMalloc(&dj, sizeof(Job));
  cudaMalloc(&db, sizeof(unsigned));
  cudaMemcpy(dj, &job, sizeof(Job), cudaMemcpyHostToDevice);
  unsigned none = 0xffffffffu, got[3];
  cudaMemcpy(db, &none, 4, cudaMemcpyHostToDevice);
  search<<<32, 256>>>(dj, db);
  cudaMemcpy(&got[0], db, 4, cudaMemcpyDeviceToHost);
  search<<<32, 256>>>(dj, &dj->best);
  cudaMemcpy(&got[1], &dj->best, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(db, &none, 4, cudaMemcpyHostToDevice);
  searchStop<<<32, 256>>>(dj, db);
  cudaMemcpy(&got[2], db, 4, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  bool ok = err == cudaSuccess && got[0] == want && got[1] == want && got[2] == want;
  printf("nonce: %u candidates under 0x%08x, lowest %u; GPU %u %u %u\n", hits, job.target, want, got[0], got[1], got[2]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(dj);
  cudaFree(db);
  return ok ? 0 : 1;
}
