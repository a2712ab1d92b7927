// Reductions in the shapes of the classic "reduction" and "threadFenceReduction" samples (own code):
// interleaved addressing with a divergent modulo test, strided indexing (bank conflicts), sequential
// addressing, first add during the load, a last warp unrolled through volatile shared memory with
// __syncwarp, a block-size template with many elements per thread and a shuffle tail, and a
// single-pass sum where each block publishes its partial, fences, and the block that takes the last
// ticket of an atomicInc sums the partials and resets the ticket.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                                            \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);               \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

__global__ void redInterleaved(const int* in, int* out, int n) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (t % (2 * k) == 0) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void redStrided(const int* in, int* out, int n) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    unsigned j = 2 * k * t;
    if (j < blockDim.x) s[j] += s[j + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void redSequential(const int* in, int* out, int n) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void redFirstAdd(const int* in, int* out, int n) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + t;
  int v = i < n ? in[i] : 0;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
    if (t < k) s[t] = v = v + s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    volatile int* vs = s;
    if (blockDim.x >= 64) vs[t] = v = v + vs[t + 32];
    __syncwarp();
    for (int k = 16; k > 0; k >>= 1) {
      v += vs[t + k];
      __syncwarp();
      vs[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <unsigned B, bool POW2>
__global__ void redMany(const int* in, int* out, unsigned n) {
  __shared__ int s[B];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * B * 2 + t;
  unsigned grid = B * 2 * gridDim.x;
  int v = 0;
  while (i < n) {
    v += in[i];
    if (POW2 || i + B < n) v += in[i + B];
    i += grid;
  }
  s[t] = v;
  __syncthreads();
  if (B >= 512 && t < 256) s[t] = v = v + s[t + 256];
  __syncthreads();
  if (B >= 256 && t < 128) s[t] = v = v + s[t + 128];
  __syncthreads();
  if (B >= 128 && t < 64) s[t] = v = v + s[t + 64];
  __syncthreads();
  if (t < 32) {
    if (B >= 64) v += s[t + 32];
    for (int k = 16; k > 0; k >>= 1) v += __shfl_down_sync(0xffffffffu, v, k);
  }
  if (t == 0) out[blockIdx.x] = v;
}

// single pass: partials, a fence, and the last block (by an atomicInc ticket) finishes
__device__ unsigned retired = 0;

template <unsigned B>
__device__ float blockSum(float v, float* s) {
  unsigned t = threadIdx.x;
  s[t] = v;
  __syncthreads();
#pragma unroll
  for (unsigned k = B / 2; k >= 32; k >>= 1) {
    if (t < k) s[t] = v = v + s[t + k];
    __syncthreads();
  }
  if (t < 32)
    for (int k = 16; k > 0; k >>= 1) v += __shfl_down_sync(0xffffffffu, v, k);
  return v;
}

template <unsigned B>
__global__ void redFence(const float* in, float* partial, float* total, unsigned n) {
  __shared__ float s[B];
  __shared__ bool last;
  unsigned t = threadIdx.x;
  float v = 0.f;
  for (unsigned i = blockIdx.x * B + t; i < n; i += B * gridDim.x) v += in[i];
  v = blockSum<B>(v, s);
  if (t == 0) {
    partial[blockIdx.x] = v;
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    float w = 0.f;
    for (unsigned i = t; i < gridDim.x; i += B) w += ((volatile float*)partial)[i];
    w = blockSum<B>(w, s);
    if (t == 0) {
      total[0] = w;
      retired = 0;
    }
  }
}

static unsigned fbits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

int main() {
  const int n = 1 << 18;
  int* h = (int*)malloc(n * sizeof(int));
  float* hf = (float*)malloc(n * sizeof(float));
  unsigned x = 12345u;
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    h[i] = (int)(x >> 20) - 2048;
    want += h[i];
    hf[i] = (float)((x >> 9) & 0xffff) / 65536.0f - 0.25f;
  }
  int *din, *dout;
  float *fin, *fpart, *ftot;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&fin, n * sizeof(float)));
  CHECK(cudaMalloc(&fpart, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&ftot, sizeof(float)));
  CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(fin, hf, n * sizeof(float), cudaMemcpyHostToDevice));
  int* part = (int*)malloc(n * sizeof(int));
  bool ok = true;
  // the first four kernels: one launch over the whole array, the partials summed on the host
  const char* names[4] = {"interleaved", "strided", "sequential", "firstadd"};
  for (int k = 0; k < 4; ++k) {
    int threads = k == 3 ? 128 : 256;
    int per = k == 3 ? threads * 2 : threads;
    int m = n - 1000 * k;  // sizes not a multiple of the block
    int blocks = (m + per - 1) / per;
    size_t sh = threads * sizeof(int);
    if (k == 0) redInterleaved<<<blocks, threads, sh>>>(din, dout, m);
    if (k == 1) redStrided<<<blocks, threads, sh>>>(din, dout, m);
    if (k == 2) redSequential<<<blocks, threads, sh>>>(din, dout, m);
    if (k == 3) redFirstAdd<<<blocks, threads, sh>>>(din, dout, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(part, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long got = 0, ref = 0;
    for (int b = 0; b < blocks; ++b) got += part[b];
    for (int i = 0; i < m; ++i) ref += h[i];
    printf("%-12s n=%d blocks=%d sum=%lld %s\n", names[k], m, blocks, got, got == ref ? "ok" : "WRONG");
    ok = ok && got == ref;
  }
  // many elements per thread: a power-of-two size and an odd one
  {
    redMany<256, true><<<64, 256>>>(din, dout, n);
    CHECK(cudaMemcpy(part, dout, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int b = 0; b < 64; ++b) got += part[b];
    printf("many<256,pow2> sum=%lld %s\n", got, got == want ? "ok" : "WRONG");
    ok = ok && got == want;
    unsigned m = n - 777;
    redMany<128, false><<<40, 128>>>(din, dout, m);
    CHECK(cudaMemcpy(part, dout, 40 * sizeof(int), cudaMemcpyDeviceToHost));
    long long ref = 0;
    got = 0;
    for (int b = 0; b < 40; ++b) got += part[b];
    for (unsigned i = 0; i < m; ++i) ref += h[i];
    printf("many<128> n=%u sum=%lld %s\n", m, got, got == ref ? "ok" : "WRONG");
    ok = ok && got == ref;
  }
  // single pass, twice (the ticket must have been reset)
  for (int rep = 0; rep < 2; ++rep) {
    unsigned m = rep ? n - 4099 : n;
    int blocks = rep ? 48 : 96;
    redFence<128><<<blocks, 128>>>(fin, fpart, ftot, m);
    CHECK(cudaGetLastError());
    float got;
    CHECK(cudaMemcpy(&got, ftot, sizeof(float), cudaMemcpyDeviceToHost));
    double ref = 0;
    for (unsigned i = 0; i < m; ++i) ref += hf[i];
    bool good = fabs(got - ref) < 1e-3 * (1 + fabs(ref));
    printf("fence pass %d n=%u blocks=%d sum=%.4f bits=%08x %s\n", rep, m, blocks, got, fbits(got),
           good ? "ok" : "WRONG");
    ok = ok && good;
  }
  unsigned r;
  CHECK(cudaMemcpyFromSymbol(&r, retired, sizeof(r)));
  printf("ticket after: %u\n", r);
  ok = ok && r == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
