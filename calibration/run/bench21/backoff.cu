// Locks with __nanosleep back-off, as written with cuda::atomic_ref: a lock a bucket in global
// memory taken per thread (compare_exchange_strong acquire, store release, sleep doubling up to
// 1 us), lanes of one warp often after the same bucket; each holder appends its key to the
// bucket's list and bumps the bucket's sum. A ticket lock per block-group (fetch_add tickets,
// the holder spins with back-off on now_serving) guarding a running 64-bit checksum. Results are
// order-free (sums, counts, the sorted lists' hash); checked against the host.
#include <cuda/atomic>
#include <cstdio>
#include <vector>
#include <algorithm>

constexpr int NB = 64;      // buckets
constexpr int CAP = 4096;   // slots a bucket

struct Buckets {
  int lock[NB];
  int count[NB];
  long long sum[NB];
  int keys[NB][CAP];
};

__device__ void take(int* l) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*l);
  unsigned ns = 8;
  int expect = 0;
  while (!a.compare_exchange_strong(expect, 1, cuda::std::memory_order_acquire,
                                    cuda::std::memory_order_relaxed)) {
    expect = 0;
    __nanosleep(ns);
    ns = ns < 1024 ? ns * 2 : 1024;
  }
}

__device__ void give(int* l) {
  cuda::atomic_ref<int, cuda::thread_scope_device>(*l).store(0, cuda::std::memory_order_release);
}

__global__ void insert(const int* keys, int n, Buckets* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i];
  int h = (int)(((unsigned)k * 2654435761u) >> 26);  // 0..63
  take(&b->lock[h]);
  int c = b->count[h];
  b->keys[h][c] = k;
  b->count[h] = c + 1;
  b->sum[h] += k;
  give(&b->lock[h]);
}

struct Ticket {
  unsigned next;
  unsigned serving;
  unsigned long long check;
  unsigned order;
};

__global__ void tickets(const int* keys, int per, Ticket* t) {
  if (threadIdx.x % 32 != 0) return;  // a lane a warp queues
  int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> next(t->next), serving(t->serving);
  unsigned my = next.fetch_add(1, cuda::std::memory_order_relaxed);
  unsigned ns = 16;
  while (serving.load(cuda::std::memory_order_acquire) != my) {
    __nanosleep(ns);
    ns = ns < 2048 ? ns * 2 : 2048;
  }
  unsigned long long c = t->check;
  for (int j = 0; j < per; ++j) c += (unsigned long long)(unsigned)keys[w * per + j] * (j + 1);
  t->check = c;
  t->order += 1;
  serving.store(my + 1, cuda::std::memory_order_release);
}

int main() {
  const int N = 1 << 17, TB = 96, TPB = 256, PER = 16;
  std::vector<int> keys(N);
  unsigned s = 5150;
  for (int i = 0; i < N; ++i) {
    s = s * 1664525u + 1013904223u;
    keys[i] = (int)(s >> 8) & 0xfffff;
    if ((i & 31) < 8) keys[i] = keys[i & ~31];  // a quarter of each warp after one bucket
  }
  int* dk; Buckets* db; Ticket* dt;
  cudaMalloc(&dk, N * 4); cudaMalloc(&db, sizeof(Buckets)); cudaMalloc(&dt, sizeof(Ticket));
  cudaMemcpy(dk, keys.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemset(db, 0, sizeof(Buckets)); cudaMemset(dt, 0, sizeof(Ticket));
  insert<<<N / 256, 256>>>(dk, N, db);
  tickets<<<TB, TPB>>>(dk, PER, dt);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<char> raw(sizeof(Buckets));
  cudaMemcpy(raw.data(), db, sizeof(Buckets), cudaMemcpyDeviceToHost);
  const Buckets* g = (const Buckets*)raw.data();
  Ticket gt;
  cudaMemcpy(&gt, dt, sizeof(Ticket), cudaMemcpyDeviceToHost);
  int bad = 0;
  std::vector<std::vector<int>> want(NB);
  for (int i = 0; i < N; ++i) want[((unsigned)keys[i] * 2654435761u) >> 26].push_back(keys[i]);
  unsigned hash = 0; long long tot = 0; int maxc = 0;
  for (int h = 0; h < NB; ++h) {
    std::vector<int> got(g->keys[h], g->keys[h] + std::min(g->count[h], CAP));
    std::sort(got.begin(), got.end());
    std::sort(want[h].begin(), want[h].end());
    long long ws = 0;
    for (int k : want[h]) ws += k;
    if (got != want[h] || g->sum[h] != ws) ++bad;
    for (int k : got) hash = hash * 31u + (unsigned)k;
    tot += g->sum[h];
    maxc = std::max(maxc, g->count[h]);
  }
  unsigned long long wc = 0;
  int warps = TB * TPB / 32;
  for (int w = 0; w < warps; ++w)
    for (int j = 0; j < PER; ++j) wc += (unsigned long long)(unsigned)keys[w * PER + j] * (j + 1);
  if (gt.check != wc || gt.order != (unsigned)warps || gt.next != (unsigned)warps || gt.serving != (unsigned)warps) ++bad;
  printf("insert: %d keys sum %lld largest bucket %d hash %08x\n", N, tot, maxc, hash);
  printf("tickets: %u holders checksum %llu\n", gt.order, gt.check);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
