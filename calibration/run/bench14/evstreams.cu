// A chunked pipeline over three streams: chunk k is copied in and enciphered on stream k%3, its
// histogram is taken on stream (k+1)%3 after waiting on an event recorded behind the first
// stage, and the streams' stream-ordered allocations (cudaMallocAsync/cudaFreeAsync) come and go
// per chunk. Portable pinned buffers, cudaEventQuery/cudaStreamQuery polling, timing events and a
// host function counting finished chunks. Checked against the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__host__ __device__ unsigned mix(unsigned x, unsigned key) {
  x ^= key; x *= 0x9E3779B1u; x ^= x >> 15; x = (x << 7) | (x >> 25);
  return x + key;
}
__global__ void encipher(const unsigned *in, unsigned *out, int n, unsigned key) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = in[i];
    for (int r = 0; r < 4; r++) v = mix(v, key + r);
    out[i] = v;
  }
}
__global__ void histo64(const unsigned *v, int n, unsigned *bins) {
  __shared__ unsigned h[64];
  if (threadIdx.x < 64) h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[v[i] >> 26], 1u);
  __syncthreads();
  if (threadIdx.x < 64 && h[threadIdx.x]) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

static std::atomic<int> finished(0);
static void CUDART_CB chunkDone(void *) { finished++; }

int main() {
  const int CH = 12, M = 1 << 16, N = CH * M;
  unsigned *hIn, *hOut, *hBins;
  CK(cudaHostAlloc(&hIn, N * sizeof(unsigned), cudaHostAllocPortable));
  CK(cudaHostAlloc(&hOut, N * sizeof(unsigned), cudaHostAllocPortable));
  CK(cudaHostAlloc(&hBins, CH * 64 * sizeof(unsigned), cudaHostAllocPortable));
  for (int i = 0; i < N; i++) hIn[i] = (unsigned)i * 2654435761u ^ (i >> 3);
  unsigned *dBins;
  CK(cudaMalloc(&dBins, CH * 64 * sizeof(unsigned)));
  CK(cudaMemset(dBins, 0, CH * 64 * sizeof(unsigned)));
  cudaStream_t st[3];
  for (int s = 0; s < 3; s++) CK(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking));
  cudaEvent_t staged[CH], start, stop;
  for (int k = 0; k < CH; k++) CK(cudaEventCreateWithFlags(&staged[k], cudaEventDisableTiming));
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  CK(cudaEventRecord(start, st[0]));
  for (int k = 0; k < CH; k++) {
    cudaStream_t a = st[k % 3], b = st[(k + 1) % 3];
    unsigned *dIn, *dOut;
    CK(cudaMallocAsync(&dIn, M * sizeof(unsigned), a));
    CK(cudaMallocAsync(&dOut, M * sizeof(unsigned), a));
    CK(cudaMemcpyAsync(dIn, hIn + k * M, M * sizeof(unsigned), cudaMemcpyHostToDevice, a));
    encipher<<<64, 256, 0, a>>>(dIn, dOut, M, 0x1234u * (k + 1));
    CK(cudaEventRecord(staged[k], a));
    CK(cudaFreeAsync(dIn, a));
    CK(cudaStreamWaitEvent(b, staged[k], 0));
    histo64<<<32, 256, 0, b>>>(dOut, M, dBins + 64 * k);
    CK(cudaMemcpyAsync(hOut + k * M, dOut, M * sizeof(unsigned), cudaMemcpyDeviceToHost, b));
    CK(cudaMemcpyAsync(hBins + 64 * k, dBins + 64 * k, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost, b));
    CK(cudaFreeAsync(dOut, b));
    CK(cudaLaunchHostFunc(b, chunkDone, nullptr));
  }
  for (int s = 1; s < 3; s++) {
    cudaEvent_t e;
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CK(cudaEventRecord(e, st[s]));
    CK(cudaStreamWaitEvent(st[0], e, 0));
  }
  CK(cudaEventRecord(stop, st[0]));
  int polls = 0;
  while (cudaEventQuery(stop) == cudaErrorNotReady) polls++;
  CK(cudaEventSynchronize(stop));
  float ms = -1;
  CK(cudaEventElapsedTime(&ms, start, stop));
  bool ok = ms >= 0.0f;
  for (int s = 0; s < 3; s++) if (cudaStreamQuery(st[s]) != cudaSuccess) { printf("stream %d busy\n", s); ok = false; }
  if (finished.load() != CH) { printf("host functions %d\n", finished.load()); ok = false; }
  unsigned long long check = 0;
  int bad = 0;
  for (int k = 0; k < CH && bad < 5; k++) {
    unsigned want[64];
    memset(want, 0, sizeof want);
    for (int i = 0; i < M; i++) {
      unsigned v = hIn[k * M + i];
      for (int r = 0; r < 4; r++) v = mix(v, 0x1234u * (k + 1) + r);
      if (hOut[k * M + i] != v && bad++ < 5) printf("chunk %d elem %d got %08x want %08x\n", k, i, hOut[k * M + i], v);
      want[v >> 26]++;
      check += v;
    }
    for (int j = 0; j < 64; j++)
      if (hBins[64 * k + j] != want[j] && bad++ < 5) printf("chunk %d bin %d got %u want %u\n", k, j, hBins[64 * k + j], want[j]);
  }
  ok = ok && bad == 0;
  printf("chunks %d, checksum %llu, bin0 of chunk 0 %u\n", CH, check, hBins[0]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
