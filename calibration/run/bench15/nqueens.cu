// N-queens solutions counted by bitmask backtracking: the host lists every safe placement of the
// first three rows (the prefixes); a thread a prefix walks the remaining rows depth-first with
// its own stack of free-square masks in a local array (lowest free square by x & -x, __ffs for
// the column), counts per first-row column by atomicAdd, and the total by a __shfl_xor_sync sum
// and one 64-bit atomicAdd a warp. A second kernel counts the solutions a prefix in shared
// memory with a block of 64 threads a prefix group. N = 12 (14,200 solutions), checked against
// the host's own recursion. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define N 12
#define PRE 3
struct Prefix { unsigned cols, d1, d2; int first; };

__device__ unsigned walk(Prefix p) {
  const unsigned all = (1u << N) - 1;
  unsigned cols[N], d1[N], d2[N], avail[N];
  int depth = 0;
  cols[0] = p.cols; d1[0] = p.d1; d2[0] = p.d2;
  avail[0] = all & ~(p.cols | p.d1 | p.d2);
  unsigned count = 0;
  while (depth >= 0) {
    unsigned a = avail[depth];
    if (a == 0) { depth--; continue; }
    unsigned bit = a & (0u - a);
    avail[depth] = a ^ bit;
    if (depth == N - PRE - 1) { count++; continue; }
    unsigned c = cols[depth] | bit, x = (d1[depth] | bit) << 1, y = (d2[depth] | bit) >> 1;
    depth++;
    cols[depth] = c; d1[depth] = x & all; d2[depth] = y;
    avail[depth] = all & ~(c | x | y);
  }
  return count;
}

__global__ void solve(const Prefix *pre, int n, unsigned *perColumn, unsigned long long *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  if (i < n) {
    c = walk(pre[i]);
    if (c) atomicAdd(&perColumn[pre[i].first], c);
  }
  unsigned w = c;
  for (int o = 16; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffffu, w, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, (unsigned long long)w);
}

// the same walk, counts kept in shared memory by the prefix's second-row column
__global__ void bySecond(const Prefix *pre, const int *second, int n, unsigned *out) {
  __shared__ unsigned s[N];
  if (threadIdx.x < N) s[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned c = walk(pre[i]);
    atomicAdd(&s[second[i]], c);
  }
  __syncthreads();
  if (threadIdx.x < N && s[threadIdx.x]) atomicAdd(&out[threadIdx.x], s[threadIdx.x]);
}

static unsigned long long hostCount(int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == N) return 1;
  unsigned long long c = 0;
  for (int j = 0; j < N; j++) {
    unsigned b = 1u << j;
    if ((cols | d1 | d2) & b) continue;
    c += hostCount(row + 1, cols | b, ((d1 | b) << 1) & ((1u << N) - 1), (d2 | b) >> 1);
  }
  return c;
}

int main() {
  std::vector<Prefix> pre; std::vector<int> second;
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++)
      for (int c = 0; c < N; c++) {
        unsigned cols = 0, d1 = 0, d2 = 0; bool ok = true;
        for (int j : {a, b, c}) {
          unsigned bit = 1u << j;
          if ((cols | d1 | d2) & bit) { ok = false; break; }
          cols |= bit; d1 = ((d1 | bit) << 1) & ((1u << N) - 1); d2 = (d2 | bit) >> 1;
        }
        if (ok) { pre.push_back({cols, d1, d2, a}); second.push_back(b); }
      }
  int n = (int)pre.size();
  Prefix *dPre; int *dSecond; unsigned *dCol, *dSec; unsigned long long *dTotal;
  CK(cudaMalloc(&dPre, n * sizeof(Prefix))); CK(cudaMalloc(&dSecond, n * sizeof(int)));
  CK(cudaMalloc(&dCol, N * sizeof(unsigned))); CK(cudaMalloc(&dSec, N * sizeof(unsigned)));
  CK(cudaMalloc(&dTotal, sizeof(unsigned long long)));
  CK(cudaMemcpy(dPre, pre.data(), n * sizeof(Prefix), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dSecond, second.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(dCol, 0, N * sizeof(unsigned))); CK(cudaMemset(dSec, 0, N * sizeof(unsigned)));
  CK(cudaMemset(dTotal, 0, sizeof(unsigned long long)));
  solve<<<(n + 127) / 128, 128>>>(dPre, n, dCol, dTotal);
  bySecond<<<(n + 63) / 64, 64>>>(dPre, dSecond, n, dSec);
  CK(cudaGetLastError());
  unsigned col[N], sec[N]; unsigned long long total;
  CK(cudaMemcpy(col, dCol, sizeof col, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sec, dSec, sizeof sec, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&total, dTotal, sizeof total, cudaMemcpyDeviceToHost));
  bool ok = true; unsigned long long sumSec = 0;
  printf("%d prefixes; solutions by first-row column:", n);
  for (int j = 0; j < N; j++) {
    unsigned long long h = hostCount(1, 1u << j, ((1u << j) << 1) & ((1u << N) - 1), (1u << j) >> 1);
    printf(" %u", col[j]);
    ok = ok && col[j] == h && col[j] == col[N - 1 - j];
    sumSec += sec[j];
  }
  printf("\ntotal %llu, by second-row column %llu\n", total, sumSec);
  ok = ok && total == 14200 && sumSec == total;
  printf("nqueens: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
