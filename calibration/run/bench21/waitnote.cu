// libcu++ atomics with memory orders: a shared flag (cuda::atomic_ref, block scope) that warp 0
// stores with release and notify_all()s each round while the other warps wait() on it with
// acquire; a grid-wide "last block" reduction on a cuda::std::atomic ticket (fetch_add acq_rel,
// the last block reading the partials after an acquire fence); fetch_min / fetch_max / fetch_or on
// cuda::atomic_ref over global words (relaxed), and a compare_exchange_weak loop keeping the
// largest float. Checked against the host; prints the sums.
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cstdio>
#include <vector>

__device__ cuda::std::atomic<unsigned> g_ticket{0};

// rounds: warp 0 writes 32 values, publishes round r + 1; warps 1.. wait until the flag leaves r
__global__ void rounds(const int* seed, long long* out, int nrounds) {
  __shared__ int flag;
  __shared__ int stage[32];
  __shared__ long long part[32];
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  long long acc = 0;
  for (int r = 0; r < nrounds; ++r) {
    if (warp == 0) {
      stage[lane] = seed[(blockIdx.x * nrounds + r) % 4096] * (lane + 1) + r;
      __syncwarp();
      if (lane == 0) {
        f.store(r + 1, cuda::std::memory_order_release);
        f.notify_all();
      }
    } else {
      f.wait(r, cuda::std::memory_order_acquire);
      acc += stage[(lane + warp) & 31];
    }
    __syncthreads();  // all readers done before warp 0 overwrites the stage
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) part[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int w = 1; w < (int)blockDim.x / 32; ++w) s += part[w];
    out[blockIdx.x] = s;
  }
}

// each block writes its partial; the block drawing the last ticket adds them all
__global__ void lastblock(const unsigned* in, int n, unsigned* partial, unsigned* total,
                          unsigned* words, float* fmax) {
  __shared__ unsigned red[8];
  __shared__ bool last;
  unsigned s = 0;
  int mn = 0x7fffffff, mx = -0x7fffffff;
  unsigned bits = 0;
  float best = -1e30f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = in[i];
    s += v;
    mn = min(mn, (int)(v % 100003u));
    mx = max(mx, (int)(v % 99991u));
    bits |= 1u << (v % 29u);
    best = fmaxf(best, (float)(v & 0xffffu) * 0.03125f);
  }
  cuda::atomic_ref<int, cuda::thread_scope_device> amin(*(int*)&words[0]);
  cuda::atomic_ref<int, cuda::thread_scope_device> amax(*(int*)&words[1]);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> aor(words[2]);
  amin.fetch_min(mn, cuda::std::memory_order_relaxed);
  amax.fetch_max(mx, cuda::std::memory_order_relaxed);
  aor.fetch_or(bits, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_device> af(*fmax);
  float cur = af.load(cuda::std::memory_order_relaxed);
  while (best > cur && !af.compare_exchange_weak(cur, best, cuda::std::memory_order_relaxed)) {
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned b = 0;
    for (int w = 0; w < (int)blockDim.x / 32; ++w) b += red[w];
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(partial[blockIdx.x])
        .store(b, cuda::std::memory_order_relaxed);
    unsigned t = g_ticket.fetch_add(1, cuda::std::memory_order_acq_rel);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
    unsigned v = 0;
    for (int i = threadIdx.x; i < (int)gridDim.x; i += blockDim.x)
      v += cuda::atomic_ref<unsigned, cuda::thread_scope_device>(partial[i])
               .load(cuda::std::memory_order_relaxed);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned tsum = 0;
      for (int w = 0; w < (int)blockDim.x / 32; ++w) tsum += red[w];
      *total = tsum;
      g_ticket.store(0, cuda::std::memory_order_relaxed);
    }
  }
}

int main() {
  const int B1 = 120, R1 = 200, N = 1 << 20, B2 = 160;
  std::vector<int> seed(4096);
  std::vector<unsigned> data(N);
  unsigned s = 777;
  for (auto& v : seed) { s = s * 1103515245u + 12345u; v = (int)((s >> 10) & 4095) - 2048; }
  for (auto& v : data) { s = s * 1664525u + 1013904223u; v = s; }
  int* dseed; long long* o1; unsigned *din, *part, *tot, *words; float* fm;
  cudaMalloc(&dseed, 4096 * 4); cudaMalloc(&o1, B1 * 8);
  cudaMalloc(&din, N * 4); cudaMalloc(&part, B2 * 4); cudaMalloc(&tot, 4);
  cudaMalloc(&words, 12); cudaMalloc(&fm, 4);
  cudaMemcpy(dseed, seed.data(), 4096 * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(din, data.data(), N * 4, cudaMemcpyHostToDevice);
  unsigned init[3] = {0x7fffffffu, 0x80000001u, 0};
  float finit = -1e30f;
  cudaMemcpy(words, init, 12, cudaMemcpyHostToDevice);
  cudaMemcpy(fm, &finit, 4, cudaMemcpyHostToDevice);
  rounds<<<B1, 256>>>(dseed, o1, R1);
  lastblock<<<B2, 256>>>(din, N, part, tot, words, fm);
  lastblock<<<B2 / 2, 256>>>(din, N / 2, part, tot + 0, words, fm);  // again: the ticket was reset
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<long long> g1(B1);
  unsigned gt, gw[3]; float gf;
  cudaMemcpy(g1.data(), o1, B1 * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&gt, tot, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gw, words, 12, cudaMemcpyDeviceToHost);
  cudaMemcpy(&gf, fm, 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  long long sum1 = 0;
  for (int b = 0; b < B1; ++b) {
    long long acc = 0;
    for (int r = 0; r < R1; ++r)
      for (int w = 1; w < 8; ++w)
        for (int lane = 0; lane < 32; ++lane) {
          int l = (lane + w) & 31;
          acc += seed[(b * R1 + r) % 4096] * (l + 1) + r;
        }
    if (acc != g1[b]) ++bad;
    sum1 += g1[b];
  }
  unsigned want = 0; int mn = 0x7fffffff, mx = -0x7fffffff; unsigned bits = 0; float best = -1e30f;
  for (int i = 0; i < N / 2; ++i) want += data[i];
  for (int i = 0; i < N; ++i) {
    unsigned v = data[i];
    mn = mn < (int)(v % 100003u) ? mn : (int)(v % 100003u);
    mx = mx > (int)(v % 99991u) ? mx : (int)(v % 99991u);
    bits |= 1u << (v % 29u);
    float f = (float)(v & 0xffffu) * 0.03125f;
    best = best > f ? best : f;
  }
  if (gt != want) ++bad;
  if ((int)gw[0] != mn || (int)gw[1] != mx || gw[2] != bits || gf != best) ++bad;
  printf("rounds: sum %lld first %lld\n", sum1, g1[0]);
  printf("lastblock: total %u min %d max %d bits %08x fmax %.5f\n", gt, (int)gw[0], (int)gw[1], gw[2], gf);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
