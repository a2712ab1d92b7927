// The nonce search of nonce.cu with its job descriptor or its result word in __device__
// variables (module-scope global memory) instead of allocations:
//   searchVar (job)     : the result word a variable, the job through a parameter
//   searchVarJob (best) : the job a variable, the result word through a parameter
//   searchVarBoth ()    : the job and the result word two different variables
//   searchVarSame ()    : the result word inside the job variable, at an offset the compiler sees
//                         apart from the loads (it loads the job once, before the loop)
//   searchVarSlot (s)   : the job and the result word in one word array, the result at a slot
//                         the launch gives (the loads may read what the atomic writes)
// Each other loop re-reads the job's count and header after the atomic (the compiler must: the
// atomic may write anything the loads read, unless they are apart).
#include <cstddef>
#include <cstdio>
#include <cstring>
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

__device__ unsigned devBest;
__device__ Job devJob;
__device__ unsigned devBest2[2];
__device__ unsigned devWords[20];  // header 0-15, count 16, target 17, result 18

// the result word a __device__ variable, the job through a parameter
__global__ void searchVar(const Job *job) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < job->count; n += stride) {
    if (compress(job->header, n, K) < job->target) atomicMin(&devBest, n);
  }
}

// the job a __device__ variable, the result word through a parameter
__global__ void searchVarJob(unsigned *best) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < devJob.count; n += stride) {
    if (compress(devJob.header, n, K) < devJob.target) atomicMin(best, n);
  }
}

// the job and the result word both __device__ variables (different ones)
__global__ void searchVarBoth() {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < devJob.count; n += stride) {
    if (compress(devJob.header, n, K) < devJob.target) atomicMin(&devBest2[1], n);
  }
}

// the result word inside the job variable: the loads may read what the atomic writes
__global__ void searchVarSame() {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < devJob.count; n += stride) {
    if (compress(devJob.header, n, K) < devJob.target) atomicMin(&devJob.best, n);
  }
}

// the result word in the job's word array at slot `s` (18): any word the loop reads may be it
__global__ void searchVarSlot(int s) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned n = blockIdx.x * blockDim.x + threadIdx.x; n < devWords[16]; n += stride) {
    if (compress(devWords, n, K) < devWords[17]) atomicMin(&devWords[s], n);
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
  for (int i = 0; i < 16; i++) job.header[i] = 0x9e3779b9u * (i + 3) ^ 0x2c1b3c6du;
  job.count = 1 << 16;
  job.target = 0x00200000u;
  job.best = 0xffffffffu;
  job.pad = 0;
  unsigned want = 0xffffffffu, hits = 0;
  for (unsigned n = 0; n < job.count; n++)
    if (compress(job.header, n, k) < job.target) { hits++; if (n < want) want = n; }
  Job *dj;
  unsigned *db;
  cudaMalloc(&dj, sizeof(Job));
  cudaMalloc(&db, sizeof(unsigned));
  cudaMemcpy(dj, &job, sizeof(Job), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(devJob, &job, sizeof(Job));
  unsigned none[2] = {0xffffffffu, 0xffffffffu}, got[5];
  unsigned words[20];
  memcpy(words, job.header, sizeof job.header);
  words[16] = job.count; words[17] = job.target; words[18] = 0xffffffffu; words[19] = 0;
  cudaMemcpyToSymbol(devWords, words, sizeof words);
  cudaMemcpyToSymbol(devBest, none, 4);
  cudaMemcpyToSymbol(devBest2, none, 8);
  cudaMemcpy(db, none, 4, cudaMemcpyHostToDevice);
  searchVar<<<32, 256>>>(dj);
  cudaMemcpyFromSymbol(&got[0], devBest, 4);
  searchVarJob<<<32, 256>>>(db);
  cudaMemcpy(&got[1], db, 4, cudaMemcpyDeviceToHost);
  searchVarBoth<<<32, 256>>>();
  cudaMemcpyFromSymbol(&got[2], devBest2, 4, 4);
  searchVarSame<<<32, 256>>>();
  cudaMemcpyFromSymbol(&got[3], devJob, 4, offsetof(Job, best));
  searchVarSlot<<<32, 256>>>(18);
  cudaMemcpyFromSymbol(&got[4], devWords, 4, 18 * 4);
  cudaError_t err = cudaDeviceSynchronize();
  bool ok = err == cudaSuccess && got[0] == want && got[1] == want && got[2] == want && got[3] == want && got[4] == want;
  printf("noncevar: %u candidates under 0x%08x, lowest %u; GPU %u %u %u %u %u\n", hits, job.target, want, got[0], got[1], got[2], got[3], got[4]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(dj);
  cudaFree(db);
  return ok ? 0 : 1;
}
