// Block-scope producer/consumer stages the libcu++ way: a cuda::pipeline partitioned into roles
// (two producer warps stream tiles with cuda::memcpy_async into four stages, six consumer warps
// reduce them), a cuda::barrier with split arrive()/wait(token) double buffering a block-wide
// cuda::memcpy_async, and Hopper's bulk copy (cuda::device::memcpy_async_tx with
// barrier_arrive_tx) into shared memory. Checked against the host; prints sums and a hash.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

constexpr int TILE = 256;   // ints per tile
constexpr int STAGES = 4;
constexpr int PRODUCERS = 64;

// every block: `tiles` tiles of TILE ints; consumers sum squares (mod 2^32) of each tile into out
__global__ void roles(const int* in, unsigned* out, int tiles) {
  __shared__ alignas(16) int buf[STAGES][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  __shared__ unsigned part[8];
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < PRODUCERS;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer
                                                          : cuda::pipeline_role::consumer);
  const int* src = in + (size_t)blockIdx.x * tiles * TILE;
  unsigned acc = 0;
  int fetched = 0;
  for (int t = 0; t < tiles; ++t) {
    if (producer) {
      for (; fetched < tiles && fetched < t + STAGES; ++fetched) {
        pipe.producer_acquire();
        // 64 producers each copy 4 ints (16 bytes)
        cuda::memcpy_async(&buf[fetched % STAGES][threadIdx.x * 4],
                           src + fetched * TILE + threadIdx.x * 4,
                           cuda::aligned_size_t<16>(16), pipe);
        pipe.producer_commit();
      }
    } else {
      pipe.consumer_wait();
      const int* b = buf[t % STAGES];
      for (int i = threadIdx.x - PRODUCERS; i < TILE; i += blockDim.x - PRODUCERS) {
        unsigned v = (unsigned)b[i];
        acc += v * v + (unsigned)t;
      }
      pipe.consumer_release();
    }
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = acc;
  block.sync();
  if (threadIdx.x == 0) {
    unsigned s = 0;
    for (int w = PRODUCERS / 32; w < (int)blockDim.x / 32; ++w) s += part[w];
    out[blockIdx.x] = s;
  }
}

// a 1-D smoothing over rows of 512 floats: the next row's copy is in flight while this one is
// read; arrive() early, wait(token) late
__global__ void split(const float* in, float* out, int rows) {
  __shared__ alignas(16) float buf[2][512];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar[2];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar[0], block.size());
    init(&bar[1], block.size());
  }
  block.sync();
  const float* src = in + (size_t)blockIdx.x * rows * 512;
  float* dst = out + (size_t)blockIdx.x * rows * 512;
  cuda::memcpy_async(block, buf[0], src, cuda::aligned_size_t<16>(512 * sizeof(float)), bar[0]);
  for (int r = 0; r < rows; ++r) {
    int cur = r & 1;
    if (r + 1 < rows)
      cuda::memcpy_async(block, buf[cur ^ 1], src + (r + 1) * 512,
                         cuda::aligned_size_t<16>(512 * sizeof(float)), bar[cur ^ 1]);
    auto tok = bar[cur].arrive();
    bar[cur].wait(cuda::std::move(tok));
    for (int i = threadIdx.x; i < 512; i += blockDim.x) {
      float l = i > 0 ? buf[cur][i - 1] : buf[cur][i];
      float m = buf[cur][i];
      float rr = i < 511 ? buf[cur][i + 1] : buf[cur][i];
      dst[r * 512 + i] = 0.25f * l + 0.5f * m + 0.25f * rr;
    }
    block.sync();  // everyone done with buf[cur] before it is refilled
  }
}

// a bulk copy per tile: thread 0 starts it and says how many bytes the barrier waits for
__global__ void bulk(const int* in, long long* out, int tiles) {
  __shared__ alignas(128) int buf[1024];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
  }
  __syncthreads();
  long long acc = 0;
  for (int t = 0; t < tiles; ++t) {
    const int* src = in + ((size_t)blockIdx.x * tiles + t) * 1024;
    cuda::barrier<cuda::thread_scope_block>::arrival_token tok;
    if (threadIdx.x == 0) {
      cuda::device::memcpy_async_tx(buf, src, cuda::aligned_size_t<16>(sizeof(buf)), bar);
      tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(buf));
    } else {
      tok = bar.arrive();
    }
    bar.wait(cuda::std::move(tok));
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) acc += (long long)buf[i] * ((i & 7) + 1);
    __syncthreads();
  }
  atomicAdd((unsigned long long*)&out[blockIdx.x], (unsigned long long)acc);
}

int main() {
  const int B1 = 96, T1 = 24;
  const int B2 = 64, R2 = 16;
  const int B3 = 80, T3 = 12;
  size_t n1 = (size_t)B1 * T1 * TILE, n2 = (size_t)B2 * R2 * 512, n3 = (size_t)B3 * T3 * 1024;
  std::vector<int> h1(n1), h3(n3);
  std::vector<float> h2(n2);
  unsigned s = 12345;
  for (auto& v : h1) { s = s * 1664525u + 1013904223u; v = (int)(s >> 9) - (1 << 22); }
  for (auto& v : h2) { s = s * 1664525u + 1013904223u; v = (float)((s >> 8) & 1023) * 0.125f - 64.0f; }
  for (auto& v : h3) { s = s * 1664525u + 1013904223u; v = (int)(s >> 12) - (1 << 19); }
  int *d1, *d3; float *d2, *o2; unsigned* o1; long long* o3;
  cudaMalloc(&d1, n1 * 4); cudaMalloc(&d2, n2 * 4); cudaMalloc(&d3, n3 * 4);
  cudaMalloc(&o1, B1 * 4); cudaMalloc(&o2, n2 * 4); cudaMalloc(&o3, B3 * 8);
  cudaMemcpy(d1, h1.data(), n1 * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d2, h2.data(), n2 * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d3, h3.data(), n3 * 4, cudaMemcpyHostToDevice);
  cudaMemset(o3, 0, B3 * 8);
  roles<<<B1, 256>>>(d1, o1, T1);
  split<<<B2, 128>>>(d2, o2, R2);
  bulk<<<B3, 256>>>(d3, o3, T3);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<unsigned> g1(B1); std::vector<float> g2(n2); std::vector<long long> g3(B3);
  cudaMemcpy(g1.data(), o1, B1 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(g2.data(), o2, n2 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(g3.data(), o3, B3 * 8, cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned hash1 = 0;
  for (int b = 0; b < B1; ++b) {
    unsigned acc = 0;
    for (int t = 0; t < T1; ++t)
      for (int i = 0; i < TILE; ++i) {
        unsigned v = (unsigned)h1[((size_t)b * T1 + t) * TILE + i];
        acc += v * v + (unsigned)t;
      }
    if (acc != g1[b]) ++bad;
    hash1 = hash1 * 31u + g1[b];
  }
  double sum2 = 0;
  for (int b = 0; b < B2; ++b)
    for (int r = 0; r < R2; ++r)
      for (int i = 0; i < 512; ++i) {
        const float* row = &h2[((size_t)b * R2 + r) * 512];
        float l = i > 0 ? row[i - 1] : row[i], m = row[i], rr = i < 511 ? row[i + 1] : row[i];
        float want = 0.25f * l + 0.5f * m + 0.25f * rr;
        float got = g2[((size_t)b * R2 + r) * 512 + i];
        if (want != got) ++bad;
        sum2 += got;
      }
  long long sum3 = 0;
  for (int b = 0; b < B3; ++b) {
    long long acc = 0;
    for (int t = 0; t < T3; ++t)
      for (int i = 0; i < 1024; ++i) acc += (long long)h3[((size_t)b * T3 + t) * 1024 + i] * ((i & 7) + 1);
    if (acc != g3[b]) ++bad;
    sum3 += g3[b];
  }
  printf("roles: %d blocks hash %08x first %u\n", B1, hash1, g1[0]);
  printf("split: sum %.4f\n", sum2);
  printf("bulk: sum %lld\n", sum3);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
