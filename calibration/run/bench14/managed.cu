// Unified memory: a forest of linked nodes built by the host in cudaMallocManaged memory (child
// pointers, not indices), prefetched to the device and advised read-mostly; each thread walks
// from its node to the root summing weights, the host edits weights between launches (after
// synchronising) and a per-stream attached buffer (cudaMemAttachHost + cudaStreamAttachMemAsync)
// collects a histogram of depths; a __managed__ counter is read by the host without a copy.
// Checked against the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

struct Node { Node *parent; int weight; int depth; };
__managed__ unsigned long long walkedSteps;

__global__ void walk(const Node *nodes, int n, long long *sums, unsigned *depthHist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Node *p = &nodes[i];
  long long s = 0; int steps = 0;
  while (p) { s += p->weight; p = p->parent; steps++; }
  sums[i] = s;
  atomicAdd(&depthHist[min(steps, 31)], 1u);
  unsigned long long agg = steps;
  for (int o = 16; o > 0; o >>= 1) agg += __shfl_down_sync(0xffffffffu, agg, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(&walkedSteps, agg);
}

int main() {
  const int N = 1 << 17;
  int dev = 0;
  CK(cudaGetDevice(&dev));
  Node *nodes;
  long long *sums;
  unsigned *hist;
  CK(cudaMallocManaged(&nodes, N * sizeof(Node)));
  CK(cudaMallocManaged(&sums, N * sizeof(long long)));
  CK(cudaMallocManaged(&hist, 32 * sizeof(unsigned), cudaMemAttachHost));
  // Parent of i: i/3 - (i%5) clipped (a forest of shallow chains); root when parent would be i.
  for (int i = 0; i < N; i++) {
    int p = i / 3 - (i % 5);
    nodes[i].parent = (p >= 0 && p < i) ? &nodes[p] : nullptr;
    nodes[i].weight = (i * 7919) % 1000 - 500;
  }
  for (int i = 0; i < N; i++) nodes[i].depth = nodes[i].parent ? (int)(nodes[i].parent - nodes) : -1;
  for (int i = 0; i < 32; i++) hist[i] = 0;
  walkedSteps = 0;
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  CK(cudaStreamAttachMemAsync(st, hist, 0, cudaMemAttachSingle));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice; loc.id = dev;
  CK(cudaMemAdvise(nodes, N * sizeof(Node), cudaMemAdviseSetReadMostly, loc));
  CK(cudaMemPrefetchAsync(nodes, N * sizeof(Node), loc, 0, st));
  CK(cudaMemPrefetchAsync(sums, N * sizeof(long long), loc, 0, st));
  bool ok = true;
  long long check = 0;
  unsigned long long wantSteps = 0;
  unsigned wantHist[32] = {0};
  for (int round = 0; round < 3; round++) {
    walk<<<(N + 255) / 256, 256, 0, st>>>(nodes, N, sums, hist);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st));
    int bad = 0;
    for (int i = 0; i < N; i++) {
      long long s = 0; int steps = 0;
      for (const Node *p = &nodes[i]; p; p = p->parent) { s += p->weight; steps++; }
      wantSteps += steps; wantHist[steps < 31 ? steps : 31]++;
      if (sums[i] != s && bad++ < 5) printf("round %d node %d got %lld want %lld\n", round, i, sums[i], s);
      check += sums[i] * (round + 1);
    }
    ok = ok && bad == 0;
    for (int i = 0; i < N; i += 97) nodes[i].weight += round + 1;  // host edit between launches
  }
  for (int d = 0; d < 32; d++) if (hist[d] != wantHist[d]) { printf("depth %d got %u want %u\n", d, hist[d], wantHist[d]); ok = false; }
  if (walkedSteps != wantSteps) { printf("steps %llu want %llu\n", walkedSteps, wantSteps); ok = false; }
  int maxd = 0;
  for (int d = 0; d < 32; d++) if (hist[d]) maxd = d;
  printf("steps %llu, deepest %d, checksum %lld\n", walkedSteps, maxd, check);
  CK(cudaFree(nodes)); CK(cudaFree(sums)); CK(cudaFree(hist));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
