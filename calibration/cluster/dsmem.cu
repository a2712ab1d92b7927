// Distributed shared memory: blocks of a cluster reading, writing and atomically updating each
// other's shared memory (cooperative groups' map_shared_rank, which compiles to mapa and
// ld/st/atom.shared::cluster), the cluster barrier (cluster.sync(), and the split
// barrier_arrive/barrier_wait), a remote mbarrier arrival, a histogram whose bins are spread over
// the cluster's shared memories (clusters of 2, 4, 8 and, with the non-portable size allowed,
// 16 blocks) and a cluster-wide reduction. Every result is checked against the host's.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); return 1; } } while (0)

// Each block writes rank * 1000 + tid into the next rank's slot, then reads what the previous
// rank wrote into its own.
__global__ void ring(unsigned *out) {
  __shared__ unsigned slot[128];
  cg::cluster_group c = cg::this_cluster();
  unsigned r = c.block_rank(), n = c.num_blocks();
  c.sync();  // every block of the cluster has started
  unsigned *next = c.map_shared_rank(slot, (r + 1) % n);
  next[threadIdx.x] = r * 1000 + threadIdx.x;
  c.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = slot[threadIdx.x];
  c.sync();  // no block leaves while another may still read its memory
}

// Bins spread over the cluster: bin b lives in rank b % n's local bin b / n.
template <int BINS>
__global__ void histogram(const unsigned *data, int count, unsigned *bins) {
  extern __shared__ unsigned local[];
  cg::cluster_group c = cg::this_cluster();
  unsigned n = c.num_blocks(), per = BINS / n;
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) local[i] = 0;
  c.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    unsigned b = data[i] % BINS;
    unsigned *dst = c.map_shared_rank(local, b % n);
    atomicAdd(dst + b / n, 1u);
  }
  c.sync();
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&bins[i * n + c.block_rank()], local[i]);
}

// Each block sums its slice into shared memory; rank 0 adds the cluster's partial sums (read from
// the other blocks' shared memory) after the split cluster barrier.
__global__ void reduce(const int *x, long long *sums) {
  __shared__ long long partial[8];
  __shared__ long long total;
  cg::cluster_group c = cg::this_cluster();
  cg::thread_block b = cg::this_thread_block();
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  long long s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
  b.sync();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) t += partial[w];
    total = t;
  }
  c.barrier_arrive();
  c.barrier_wait();
  if (c.block_rank() == 0 && threadIdx.x == 0) {
    long long t = 0;
    for (unsigned r = 0; r < c.num_blocks(); ++r) t += *c.map_shared_rank(&total, r);
    sums[blockIdx.x / c.num_blocks()] = t;
  }
  c.sync();
}

// Rank 1 stores a word into rank 0's shared memory and arrives on rank 0's mbarrier
// (mbarrier.arrive.release.cluster.shared::cluster); rank 0 waits on it and copies the word out.
__global__ void __cluster_dims__(2, 1, 1) handoff(unsigned *out) {
  __shared__ alignas(8) unsigned long long bar;
  __shared__ unsigned word;
  cg::cluster_group c = cg::this_cluster();
  unsigned rank = c.block_rank();
  unsigned bar_a = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned word_a = (unsigned)__cvta_generic_to_shared(&word);
  if (rank == 0 && threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_a));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  c.sync();
  unsigned cid = blockIdx.x / 2;
  if (rank == 1 && threadIdx.x == 0) {
    unsigned rw, rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rw) : "r"(word_a));
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rb) : "r"(bar_a));
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(rw), "r"(cid * 7 + 3) : "memory");
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rb) : "memory");
  }
  if (rank == 0 && threadIdx.x == 0) {
    unsigned ok = 0;
    while (!ok) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(bar_a) : "memory");
    }
    out[cid] = word;
  }
  c.sync();
}

template <int BINS>
static int hist_run(const char *what, unsigned *d_data, const unsigned *h_data, int count, int cluster, int blocks, bool nonportable) {
  unsigned *d_bins;
  CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned)));
  CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned)));
  size_t smem = BINS / cluster * sizeof(unsigned);
  if (nonportable) CHECK(cudaFuncSetAttribute(histogram<BINS>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, histogram<BINS>, (const unsigned *)d_data, count, d_bins));
  unsigned h[BINS], want[BINS] = {};
  CHECK(cudaMemcpy(h, d_bins, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) want[h_data[i] % BINS]++;
  int bad = 0;
  unsigned long long sum = 0, weighted = 0;
  for (int i = 0; i < BINS; ++i) { bad += h[i] != want[i]; sum += h[i]; weighted += (unsigned long long)h[i] * (i + 1); }
  printf("%s: %d bins in clusters of %d, %d blocks: sum %llu weighted %llu, first bins %u %u %u %u, %s\n",
         what, BINS, cluster, blocks, sum, weighted, h[0], h[1], h[2], h[3], bad ? "WRONG" : "ok");
  CHECK(cudaFree(d_bins));
  return bad;
}

int main() {
  // the ring, in clusters of 2, 4 and 8
  unsigned *d_out;
  CHECK(cudaMalloc(&d_out, 16 * 128 * sizeof(unsigned)));
  for (int n : {2, 4, 8}) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(16);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = n;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, ring, d_out));
    unsigned h[16 * 128];
    CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 16; ++b)
      for (int t = 0; t < 128; ++t) bad += h[b * 128 + t] != ((b % n + n - 1) % n) * 1000 + t;
    printf("ring in clusters of %d: block 0 got %u %u, block 5 got %u, %s\n", n, h[0], h[1], h[5 * 128 + 7], bad ? "WRONG" : "ok");
    if (bad) return 1;
  }

  // the histogram
  const int count = 50000;
  unsigned *h_data = (unsigned *)malloc(count * sizeof(unsigned)), *d_data;
  unsigned s = 12345;
  for (int i = 0; i < count; ++i) { s = s * 1664525u + 1013904223u; h_data[i] = (s >> 8) ^ (i % 13 == 0 ? 5u : 0u); }
  CHECK(cudaMalloc(&d_data, count * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, h_data, count * sizeof(unsigned), cudaMemcpyHostToDevice));
  int bad = 0;
  bad += hist_run<256>("histogram", d_data, h_data, count, 2, 8, false);
  bad += hist_run<256>("histogram", d_data, h_data, count, 4, 16, false);
  bad += hist_run<1024>("histogram", d_data, h_data, count, 8, 16, false);
  bad += hist_run<2048>("histogram", d_data, h_data, count, 16, 32, true);
  if (bad) return 1;

  // the cluster-wide reduction: 32 blocks of 256 in clusters of 4
  const int nx = 32 * 256;
  int *h_x = (int *)malloc(nx * sizeof(int)), *d_x;
  for (int i = 0; i < nx; ++i) h_x[i] = (int)((i * 2654435761u) >> 20) - 2048;
  CHECK(cudaMalloc(&d_x, nx * sizeof(int)));
  CHECK(cudaMemcpy(d_x, h_x, nx * sizeof(int), cudaMemcpyHostToDevice));
  long long *d_sums, h_sums[8];
  CHECK(cudaMalloc(&d_sums, sizeof h_sums));
  {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(32);
    cfg.blockDim = dim3(256);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 4;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, reduce, (const int *)d_x, d_sums));
  }
  CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
  printf("cluster sums:");
  for (int c = 0; c < 8; ++c) {
    long long want = 0;
    for (int i = c * 1024; i < (c + 1) * 1024; ++i) want += h_x[i];
    printf(" %lld%s", h_sums[c], h_sums[c] == want ? "" : "(WRONG)");
    bad += h_sums[c] != want;
  }
  printf("\n");

  // the remote mbarrier handoff, 6 clusters of 2
  CHECK(cudaMemset(d_out, 0, 6 * sizeof(unsigned)));
  handoff<<<12, 32>>>(d_out);
  CHECK(cudaGetLastError());
  unsigned h6[6];
  CHECK(cudaMemcpy(h6, d_out, sizeof h6, cudaMemcpyDeviceToHost));
  printf("handoff:");
  for (int c = 0; c < 6; ++c) { printf(" %u", h6[c]); bad += h6[c] != c * 7u + 3; }
  printf("\n");
  printf("%s\n", bad ? "FAILED" : "all ok");
  return bad ? 1 : 0;
}
