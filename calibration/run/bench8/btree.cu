// B+tree search (Rodinia b+tree-like shape): a tree of fan-out 32 built on the host (keys
// ascending, nodes in arrays: keys, children, key counts, leaf records), one block of 32 threads
// per query walking the levels (each thread tests one key interval; the match publishes the next
// node through shared memory), then range queries counting the records between two keys (two
// walks, then a loop over the leaves in between following the sibling links).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define ORDER 32  // children per node; up to ORDER-1 keys

struct Node {
  int nkeys;
  int leaf;
  int next;  // sibling leaf
  int keys[ORDER];
  int child[ORDER];  // child node (inner) or record value (leaf)
};

__device__ int descend(const Node *nodes, int root, int height, int key, int *shNext) {
  int cur = root;
  for (int l = 0; l < height; ++l) {
    const Node *nd = &nodes[cur];
    int t = threadIdx.x;
    int n = nd->nkeys;
    // child t covers [keys[t-1], keys[t]) for inner nodes: keys[t] is the separator after child t
    if (t <= n - 1 || t == 0) {
      int lo = (t == 0) ? -2147483647 - 1 : nd->keys[t - 1];
      int hi = (t == n - 1) ? 2147483647 : nd->keys[t];
      if (key >= lo && key < hi) *shNext = nd->child[t];
    }
    __syncthreads();
    cur = *shNext;
    __syncthreads();
  }
  return cur;
}

__global__ void findK(const Node *nodes, int root, int height, const int *queries, int *found) {
  __shared__ int shNext;
  __shared__ int hit;
  int key = queries[blockIdx.x];
  if (threadIdx.x == 0) hit = -1;
  int leaf = descend(nodes, root, height, key, &shNext);
  const Node *lf = &nodes[leaf];
  if (threadIdx.x < lf->nkeys && lf->keys[threadIdx.x] == key) hit = lf->child[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) found[blockIdx.x] = hit;
}

__global__ void rangeK(const Node *nodes, int root, int height, const int *lo, const int *hi, int *count) {
  __shared__ int shNext;
  __shared__ int part[32];
  int a = lo[blockIdx.x], b = hi[blockIdx.x];
  int la = descend(nodes, root, height, a, &shNext);
  int lb = descend(nodes, root, height, b, &shNext);
  int c = 0;
  int cur = la;
  while (true) {
    const Node *lf = &nodes[cur];
    if (threadIdx.x < lf->nkeys) {
      int k = lf->keys[threadIdx.x];
      if (k >= a && k <= b) ++c;
    }
    if (cur == lb) break;
    cur = lf->next;
  }
  part[threadIdx.x] = c;
  __syncwarp();
  for (int s = 16; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncwarp();
  }
  if (threadIdx.x == 0) count[blockIdx.x] = part[0];
}

int main() {
  const int NK = 20000, NQ = 600, NR = 200;
  std::vector<int> keys(NK);
  unsigned r = 7;
  int k = 0;
  for (int i = 0; i < NK; ++i) { r = r * 1103515245u + 12345u; k += 1 + (r >> 16) % 7; keys[i] = k; }
  // leaves of 20 to 31 keys
  std::vector<Node> nodes;
  std::vector<int> level, firstKey;
  int i = 0;
  while (i < NK) {
    r = r * 1103515245u + 12345u;
    int take = 20 + (r >> 16) % 12;
    if (NK - i < take + 20) take = NK - i < ORDER - 1 ? NK - i : (NK - i) / 2;
    Node nd = {};
    nd.leaf = 1;
    nd.nkeys = take;
    nd.next = -1;
    for (int j = 0; j < take; ++j) { nd.keys[j] = keys[i + j]; nd.child[j] = keys[i + j] * 3 + 1; }
    if (!level.empty()) nodes[level.back()].next = (int)nodes.size();
    level.push_back((int)nodes.size());
    firstKey.push_back(keys[i]);
    nodes.push_back(nd);
    i += take;
  }
  int height = 0;
  while (level.size() > 1) {
    std::vector<int> up, upKey;
    size_t j = 0;
    while (j < level.size()) {
      size_t take = std::min<size_t>(level.size() - j, 24);
      if (level.size() - j - take > 0 && level.size() - j - take < 4) take = level.size() - j;
      if (take > ORDER) take = (level.size() - j) / 2;
      Node nd = {};
      nd.leaf = 0;
      nd.nkeys = (int)take;  // children count; separators keys[0..take-2]
      nd.next = -1;
      for (size_t c = 0; c < take; ++c) {
        nd.child[c] = level[j + c];
        if (c + 1 < take) nd.keys[c] = firstKey[j + c + 1];
      }
      up.push_back((int)nodes.size());
      upKey.push_back(firstKey[j]);
      nodes.push_back(nd);
      j += take;
    }
    level = up;
    firstKey = upKey;
    ++height;
  }
  int root = level[0];
  // queries: present keys and absent ones
  std::vector<int> q(NQ), lo(NR), hi(NR);
  for (int j = 0; j < NQ; ++j) { r = r * 1103515245u + 12345u; q[j] = (j % 3 == 2) ? (int)((r >> 8) % (k + 10)) : keys[(r >> 8) % NK]; }
  for (int j = 0; j < NR; ++j) {
    r = r * 1103515245u + 12345u;
    int a = (r >> 8) % k;
    r = r * 1103515245u + 12345u;
    lo[j] = a; hi[j] = a + (r >> 8) % (40 + 30 * (j % 7));
  }
  Node *dN;
  int *dQ, *dF, *dLo, *dHi, *dC;
  cudaMalloc(&dN, sizeof(Node) * nodes.size());
  cudaMalloc(&dQ, sizeof(int) * NQ);
  cudaMalloc(&dF, sizeof(int) * NQ);
  cudaMalloc(&dLo, sizeof(int) * NR);
  cudaMalloc(&dHi, sizeof(int) * NR);
  cudaMalloc(&dC, sizeof(int) * NR);
  cudaMemcpy(dN, nodes.data(), sizeof(Node) * nodes.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dQ, q.data(), sizeof(int) * NQ, cudaMemcpyHostToDevice);
  cudaMemcpy(dLo, lo.data(), sizeof(int) * NR, cudaMemcpyHostToDevice);
  cudaMemcpy(dHi, hi.data(), sizeof(int) * NR, cudaMemcpyHostToDevice);
  findK<<<NQ, 32>>>(dN, root, height, dQ, dF);
  rangeK<<<NR, 32>>>(dN, root, height, dLo, dHi, dC);
  std::vector<int> f(NQ), c(NR);
  cudaMemcpy(f.data(), dF, sizeof(int) * NQ, cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), dC, sizeof(int) * NR, cudaMemcpyDeviceToHost);
  int bad = 0, hits = 0;
  long long cs = 0;
  for (int j = 0; j < NQ; ++j) {
    bool present = std::binary_search(keys.begin(), keys.end(), q[j]);
    int want = present ? q[j] * 3 + 1 : -1;
    if (f[j] != want) ++bad;
    hits += present;
    cs += f[j];
  }
  for (int j = 0; j < NR; ++j) {
    int want = (int)(std::upper_bound(keys.begin(), keys.end(), hi[j]) - std::lower_bound(keys.begin(), keys.end(), lo[j]));
    if (c[j] != want) ++bad;
    cs += c[j] * (j + 1);
  }
  printf("btree: %zu nodes, height %d, %d of %d keys found, checksum %lld\n", nodes.size(), height, hits, NQ, cs);
  printf("btree %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
