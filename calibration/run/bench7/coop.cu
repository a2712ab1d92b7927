// Warp-level cooperation in the shapes of the classic "warpAggregatedAtomicsCG", "binaryPartitionCG"
// and vote samples (own code): a stream filter whose surviving threads take their output slots by
// one atomicAdd per coalesced group (cg::coalesced_threads(), thread_rank, shfl of the base); an
// odd/even split of each warp by cg::binary_partition with cg::reduce over each part and the
// parts' sizes, and a split by a small label (cg::labeled_partition) whose groups' leaders add the
// groups' sums to per-label totals; per-warp keys grouped by __match_any_sync with the group sums
// by __reduce_add_sync under the group's mask; warp votes (__all_sync, __any_sync, __ballot_sync,
// __activemask in divergent code); a tile of input staged by cg::memcpy_async and cg::wait.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__device__ int aggInc(int* counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int base;
  if (g.thread_rank() == 0) base = atomicAdd(counter, (int)g.size());
  return g.shfl(base, 0) + (int)g.thread_rank();
}

// keeps the elements with value > threshold (order within the output not fixed)
__global__ void filterK(int* out, int* count, const int* in, int n, int threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > threshold) out[aggInc(count)] = in[i];
}

// per block: the sums of odd and of even values and how many of each (by binary partition), and
// per label (value % 5) the sum of values (by labeled partition)
__global__ void partitionK(const int* in, int n, long long* oddEven, int* oddCount, long long* byLabel) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the last warp is partial
  int v = in[i];
  bool odd = v & 1;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group part = cg::binary_partition(active, odd);
  int s = cg::reduce(part, v, cg::plus<int>());
  if (part.thread_rank() == 0) {
    atomicAdd((unsigned long long*)&oddEven[odd], (unsigned long long)(long long)s);
    if (odd) atomicAdd(oddCount, (int)part.size());
  }
  int label = ((v % 5) + 5) % 5;
  cg::coalesced_group same = cg::labeled_partition(active, label);
  int ls = cg::reduce(same, v, cg::plus<int>());
  if (same.thread_rank() == 0) atomicAdd((unsigned long long*)&byLabel[label], (unsigned long long)(long long)ls);
  (void)warp;
}

// keys grouped within each warp: one atomic per distinct key a warp; only threads with a key < 60
// take part (divergent mask)
__global__ void matchK(const int* keys, const int* vals, int n, unsigned* sums, unsigned* atomics) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i];
  if (k >= 60) return;
  unsigned mask = __activemask();
  unsigned peers = __match_any_sync(mask, k);
  unsigned total = __reduce_add_sync(peers, (unsigned)vals[i]);
  int leader = __ffs(peers) - 1;
  if ((threadIdx.x & 31) == leader) {
    atomicAdd(&sums[k], total);
    atomicAdd(atomics, 1u);
  }
}

// votes: per warp, whether all / any of its values are negative and the ballot of the sign, in
// code where part of the warp has already returned
__global__ void voteK(const int* in, int n, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  unsigned w = i >> 5;
  if ((v & 3) == 0) return;  // a quarter of the lanes leave
  unsigned act = __activemask();
  int allNeg = __all_sync(act, v < 0);
  int anyBig = __any_sync(act, v > 900);
  unsigned b = __ballot_sync(act, v < 0);
  if ((threadIdx.x & 31) == __ffs(act) - 1) {
    out[4 * w] = act;
    out[4 * w + 1] = b;
    out[4 * w + 2] = allNeg;
    out[4 * w + 3] = anyBig;
  }
}

// a tile of 1024 ints staged in shared memory by the block's cooperative copy, then a 3-point sum
constexpr int TILE = 1024;
__global__ void stagedK(const int* in, int* out, int n) {
  __shared__ int s[TILE];
  cg::thread_block block = cg::this_thread_block();
  int base = blockIdx.x * TILE;
  int len = min(TILE, n - base);
  cg::memcpy_async(block, s, in + base, sizeof(int) * len);
  cg::wait(block);
  for (int j = threadIdx.x; j < len; j += blockDim.x) {
    int l = j > 0 ? s[j - 1] : 0, r = j + 1 < len ? s[j + 1] : 0;
    out[base + j] = l + s[j] + r;
  }
}

int main() {
  const int n = 1 << 19;
  int* h = (int*)malloc(n * 4);
  int* hv = (int*)malloc(n * 4);
  unsigned x = 5u;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    h[i] = (int)(x >> 21) - 1024 + ((i >> 9) & 1) * 512;  // runs of mostly positive values
    hv[i] = (x >> 3) & 1023;
  }
  int *din, *dout, *dcount, *dv;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dv, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dcount, 64));
  CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, hv, n * 4, cudaMemcpyHostToDevice));
  bool ok = true;

  // filter
  CHECK(cudaMemset(dcount, 0, 4));
  filterK<<<(n + 255) / 256, 256>>>(dout, dcount, din, n, 300);
  CHECK(cudaGetLastError());
  int cnt;
  CHECK(cudaMemcpy(&cnt, dcount, 4, cudaMemcpyDeviceToHost));
  int* got = (int*)malloc(n * 4);
  CHECK(cudaMemcpy(got, dout, cnt * 4, cudaMemcpyDeviceToHost));
  long long ref = 0, sum = 0;
  int want = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] > 300) {
      ++want;
      ref += h[i];
    }
  for (int i = 0; i < cnt; ++i) sum += got[i];
  printf("filter: kept %d of %d (want %d), sum %lld %s\n", cnt, n, want, sum, cnt == want && sum == ref ? "ok" : "WRONG");
  ok = ok && cnt == want && sum == ref;

  // partitions
  long long* dll;
  CHECK(cudaMalloc(&dll, 8 * 8));
  CHECK(cudaMemset(dll, 0, 64));
  CHECK(cudaMemset(dcount, 0, 4));
  int m = n - 45;
  partitionK<<<(m + 127) / 128, 128>>>(din, m, dll, dcount, dll + 2);
  CHECK(cudaGetLastError());
  long long res[8];
  CHECK(cudaMemcpy(res, dll, 64, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&cnt, dcount, 4, cudaMemcpyDeviceToHost));
  long long oe[2] = {0, 0}, lab[5] = {0};
  int oddc = 0;
  for (int i = 0; i < m; ++i) {
    oe[h[i] & 1] += h[i];
    oddc += h[i] & 1;
    lab[((h[i] % 5) + 5) % 5] += h[i];
  }
  bool pgood = res[0] == oe[0] && res[1] == oe[1] && cnt == oddc;
  for (int k = 0; k < 5; ++k) pgood = pgood && res[2 + k] == lab[k];
  printf("partition: even %lld odd %lld (%d odd), label sums %lld %lld %lld %lld %lld %s\n", res[0], res[1], cnt,
         res[2], res[3], res[4], res[5], res[6], pgood ? "ok" : "WRONG");
  ok = ok && pgood;

  // match / reduce: keys 0..63 clustered in runs
  int* hk = (int*)malloc(n * 4);
  for (int i = 0; i < n; ++i) hk[i] = ((i / 3) * 7 + (hv[i] & 3)) % 64;
  int* dk;
  CHECK(cudaMalloc(&dk, n * 4));
  CHECK(cudaMemcpy(dk, hk, n * 4, cudaMemcpyHostToDevice));
  unsigned* du;
  CHECK(cudaMalloc(&du, 65 * 4));
  CHECK(cudaMemset(du, 0, 65 * 4));
  matchK<<<n / 256, 256>>>(dk, dv, n, du, du + 64);
  CHECK(cudaGetLastError());
  unsigned hu[65], want64[64] = {0};
  CHECK(cudaMemcpy(hu, du, 65 * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (hk[i] < 60) want64[hk[i]] += hv[i];
  int bad = 0;
  for (int k = 0; k < 64; ++k) bad += hu[k] != want64[k];
  printf("match: %u atomics for %d threads, sum[5] %u, %d keys wrong\n", hu[64], n, hu[5], bad);
  ok = ok && !bad;

  // votes
  unsigned* dvote;
  int warps = n / 32;
  CHECK(cudaMalloc(&dvote, warps * 16));
  CHECK(cudaMemset(dvote, 0xff, warps * 16));
  voteK<<<n / 128, 128>>>(din, n, dvote);
  CHECK(cudaGetLastError());
  unsigned* hvote = (unsigned*)malloc(warps * 16);
  CHECK(cudaMemcpy(hvote, dvote, warps * 16, cudaMemcpyDeviceToHost));
  bad = 0;
  unsigned long long vsum = 0;
  for (int w = 0; w < warps; ++w) {
    unsigned act = 0, b = 0;
    int all = 1, any = 0;
    for (int l = 0; l < 32; ++l) {
      int v = h[w * 32 + l];
      if ((v & 3) == 0) continue;
      act |= 1u << l;
      if (v < 0) b |= 1u << l;
      all &= v < 0;
      any |= v > 900;
    }
    if (act == 0) continue;
    bad += hvote[4 * w] != act || hvote[4 * w + 1] != b || (hvote[4 * w + 2] != 0) != all || (hvote[4 * w + 3] != 0) != any;
    vsum = vsum * 31 + hvote[4 * w + 1];
  }
  printf("vote: %d warps, ballots checksum %llx, %d wrong\n", warps, vsum, bad);
  ok = ok && !bad;

  // staged copy
  int ms = n - 1000;
  stagedK<<<(ms + TILE - 1) / TILE, 256>>>(din, dout, ms);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dout, ms * 4, cudaMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < ms; ++i) {
    int j = i % TILE, base = i - j, len = ms - base < TILE ? ms - base : TILE;
    int r = h[i] + (j > 0 ? h[i - 1] : 0) + (j + 1 < len ? h[i + 1] : 0);
    bad += got[i] != r;
  }
  printf("memcpy_async: %d elements, out[4095] %d, %d wrong\n", ms, got[4095], bad);
  ok = ok && !bad;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
