// A pipeline of many small launches over four non-blocking streams: 24 chunks of 4096 values, each
// copied in from pinned memory (`cudaMemcpyAsync`), scaled, smoothed (a 3-point stencil through
// shared memory) and reduced per block, then copied out; every chunk's reduction in stream s waits
// by `cudaStreamWaitEvent` on the previous chunk's event of another stream (a chain of running
// totals across streams); a `cudaStreamAddCallback` and a `cudaLaunchHostFunc` per chunk record
// the order in which the host saw chunks end and check the chunk's copied-out values while the
// others still run; `cudaEventQuery` / `cudaStreamQuery` after the end; a final kernel on the
// legacy default stream. The host checks every value, the chain and the callbacks.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <atomic>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int NCH = 24, CH = 4096, NS = 4, BS = 256;

__global__ void scale(int *v, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}

__global__ void smooth(const int *in, int *out, int n) {
  __shared__ int s[BS + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + 1] = i < n ? in[i] : 0;
  if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0;
  if (threadIdx.x == blockDim.x - 1) s[BS + 1] = i + 1 < n ? in[i + 1] : 0;
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x] + 2 * s[threadIdx.x + 1] + s[threadIdx.x + 2];
}

__global__ void blockSum(const int *in, long long *part, int n) {
  __shared__ long long s[BS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int o = BS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}

// one thread: the chunk's total plus the previous chunk's running total (another stream's work)
__global__ void chain(const long long *part, int nb, long long *run, int c) {
  long long t = 0;
  for (int b = 0; b < nb; ++b) t += part[b];
  run[c] = (c ? run[c - 1] : 0) + t;
}

__global__ void finalMix(const long long *run, int n, unsigned long long *h) {
  __shared__ unsigned long long s[64];
  int t = threadIdx.x;
  unsigned long long v = t < n ? (unsigned long long)run[t] * 0x9E3779B97F4A7C15ull : 0;
  s[t] = v;
  __syncthreads();
  if (t == 0) {
    unsigned long long a = 0;
    for (int i = 0; i < 64; ++i) a = (a ^ s[i]) * 1099511628211ull;
    *h = a;
  }
}

struct Ctx { int chunk; const int *host; int expectFirst; std::atomic<int> *order; int *seen; int *ok; };
static std::atomic<int> g_order(0);

static void CUDART_CB onDone(cudaStream_t, cudaError_t status, void *p) {
  Ctx *c = (Ctx *)p;
  c->seen[c->chunk] = g_order.fetch_add(1) + 1;
  c->ok[c->chunk] = status == cudaSuccess && c->host[0] == c->expectFirst;
}
static void CUDART_CB onHost(void *p) {
  Ctx *c = (Ctx *)p;
  c->ok[c->chunk] += 2 * (c->seen[c->chunk] > 0);
}

int main() {
  int fails = 0;
  int *hin, *hout;
  CK(cudaMallocHost(&hin, NCH * CH * sizeof(int)));
  CK(cudaMallocHost(&hout, NCH * CH * sizeof(int)));
  for (int i = 0; i < NCH * CH; ++i) hin[i] = (int)((i * 2654435761u) >> 22) - 512;
  int *din, *dout; long long *dpart, *drun; unsigned long long *dh;
  const int nb = CH / BS;
  CK(cudaMalloc(&din, NCH * CH * sizeof(int)));
  CK(cudaMalloc(&dout, NCH * CH * sizeof(int)));
  CK(cudaMalloc(&dpart, NCH * nb * sizeof(long long)));
  CK(cudaMalloc(&drun, NCH * sizeof(long long)));
  CK(cudaMalloc(&dh, sizeof(unsigned long long)));
  cudaStream_t st[NS];
  cudaEvent_t ev[NCH];
  for (int s = 0; s < NS; ++s) CK(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking));
  for (int c = 0; c < NCH; ++c) CK(cudaEventCreateWithFlags(&ev[c], cudaEventDisableTiming));
  // host expectations for the callbacks
  std::vector<int> expectFirst(NCH);
  for (int c = 0; c < NCH; ++c) {
    int m = 1 + c % 5, a = c - 20;
    auto at = [&](int i) { return i < 0 || i >= CH ? 0 : hin[c * CH + i] * m + a; };
    expectFirst[c] = at(-1) + 2 * at(0) + at(1);
  }
  std::vector<Ctx> ctx(NCH);
  std::vector<int> seen(NCH, 0), ok(NCH, 0);
  for (int c = 0; c < NCH; ++c) {
    cudaStream_t s = st[c % NS];
    int *in = din + c * CH, *out = dout + c * CH;
    CK(cudaMemcpyAsync(in, hin + c * CH, CH * sizeof(int), cudaMemcpyHostToDevice, s));
    scale<<<nb, BS, 0, s>>>(in, CH, 1 + c % 5, c - 20);
    smooth<<<nb, BS, 0, s>>>(in, out, CH);
    blockSum<<<nb, BS, 0, s>>>(out, dpart + c * nb, CH);
    if (c > 0) CK(cudaStreamWaitEvent(s, ev[c - 1], 0));
    chain<<<1, 1, 0, s>>>(dpart + c * nb, nb, drun, c);
    CK(cudaEventRecord(ev[c], s));
    CK(cudaMemcpyAsync(hout + c * CH, out, CH * sizeof(int), cudaMemcpyDeviceToHost, s));
    ctx[c] = Ctx{c, hout + c * CH, expectFirst[c], &g_order, seen.data(), ok.data()};
    CK(cudaStreamAddCallback(s, onDone, &ctx[c], 0));
    CK(cudaLaunchHostFunc(s, onHost, &ctx[c]));
  }
  CK(cudaGetLastError());
  for (int s = 0; s < NS; ++s) CK(cudaStreamSynchronize(st[s]));
  int pending = 0;
  for (int c = 0; c < NCH; ++c) pending += cudaEventQuery(ev[c]) != cudaSuccess;
  for (int s = 0; s < NS; ++s) pending += cudaStreamQuery(st[s]) != cudaSuccess;
  finalMix<<<1, 64>>>(drun, NCH, dh);
  CK(cudaGetLastError());
  std::vector<long long> run(NCH);
  unsigned long long hh;
  CK(cudaMemcpy(run.data(), drun, NCH * sizeof(long long), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hh, dh, sizeof(hh), cudaMemcpyDeviceToHost));
  // host model
  int bad = 0, cbBad = 0;
  long long total = 0;
  std::vector<long long> runH(NCH);
  for (int c = 0; c < NCH; ++c) {
    int m = 1 + c % 5, a = c - 20;
    auto at = [&](int i) { return i < 0 || i >= CH ? 0 : hin[c * CH + i] * m + a; };
    long long t = 0;
    for (int i = 0; i < CH; ++i) {
      int e = at(i - 1) + 2 * at(i) + at(i + 1);
      bad += hout[c * CH + i] != e;
      t += e;
    }
    total += t;
    runH[c] = total;
    bad += run[c] != runH[c];
    cbBad += ok[c] != 3 || seen[c] < 1 || seen[c] > NCH;
  }
  unsigned long long sh[64] = {0}, a = 0;
  for (int t = 0; t < NCH; ++t) sh[t] = (unsigned long long)runH[t] * 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 64; ++i) a = (a ^ sh[i]) * 1099511628211ull;
  bad += a != hh;
  // each stream's callbacks in issue order
  for (int c = NS; c < NCH; ++c) cbBad += seen[c] <= seen[c - NS];
  printf("chunks %d, values wrong %d, callbacks wrong %d, pending %d, total %lld, hash %016llx\n", NCH, bad, cbBad,
         pending, total, hh);
  fails += bad != 0 || cbBad != 0 || pending != 0;
  for (int c = 0; c < NCH; ++c) CK(cudaEventDestroy(ev[c]));
  for (int s = 0; s < NS; ++s) CK(cudaStreamDestroy(st[s]));
  CK(cudaFreeHost(hin)); CK(cudaFreeHost(hout));
  printf("streams: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
