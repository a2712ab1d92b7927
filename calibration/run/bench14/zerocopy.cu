// Mapped (zero-copy) host memory: input in a write-combined mapped buffer, a compaction of the
// elements above a threshold written straight into mapped host memory through a warp-aggregated
// system-scope counter (one atomicAdd_system per warp, lanes placed by __popc of the ballot
// below them), a second kernel reading the compacted host list back through its device pointer.
// Order of the compacted list differs run to run; it is sorted before the check.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__global__ void compact(const int *in, int n, int thr, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] > thr;
  unsigned ball = __ballot_sync(0xffffffffu, keep);
  int lane = threadIdx.x & 31;
  int base = 0;
  if (lane == 0 && ball) base = atomicAdd_system(count, __popc(ball));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(ball & ((1u << lane) - 1))] = in[i];
}
__global__ void squareBack(int *list, const int *count, long long *sum) {
  int n = *count;
  long long s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    long long v = list[i];
    s += v * v;
    list[i] = -list[i];
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd((unsigned long long *)sum, (unsigned long long)s);
}

int main() {
  CK(cudaSetDeviceFlags(cudaDeviceMapHost));
  const int N = 1 << 20, THR = 600;
  int *hIn, *hOut, *hCount; long long *hSum;
  CK(cudaHostAlloc(&hIn, N * sizeof(int), cudaHostAllocMapped | cudaHostAllocWriteCombined));
  CK(cudaHostAlloc(&hOut, N * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostAlloc(&hCount, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostAlloc(&hSum, sizeof(long long), cudaHostAllocMapped));
  for (int i = 0; i < N; i++) hIn[i] = (int)(((unsigned)i * 2246822519u) >> 22);  // 0..1023
  *hCount = 0; *hSum = 0;
  int *dIn, *dOut, *dCount; long long *dSum;
  CK(cudaHostGetDevicePointer(&dIn, hIn, 0));
  CK(cudaHostGetDevicePointer(&dOut, hOut, 0));
  CK(cudaHostGetDevicePointer(&dCount, hCount, 0));
  CK(cudaHostGetDevicePointer(&dSum, hSum, 0));
  unsigned flags = 0;
  CK(cudaHostGetFlags(&flags, hOut));
  compact<<<N / 256, 256>>>(dIn, N, THR, dOut, dCount);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<int> want;
  for (int i = 0; i < N; i++) if (hIn[i] > THR) want.push_back(hIn[i]);
  bool ok = *hCount == (int)want.size();
  if (!ok) printf("count %d want %zu\n", *hCount, want.size());
  std::vector<int> got(hOut, hOut + (ok ? *hCount : 0));
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (ok && got != want) { printf("compacted lists differ\n"); ok = false; }
  squareBack<<<120, 256>>>(dOut, dCount, dSum);
  CK(cudaDeviceSynchronize());
  long long ws = 0;
  for (int v : want) ws += (long long)v * v;
  if (*hSum != ws) { printf("sum %lld want %lld\n", *hSum, ws); ok = false; }
  int neg = 0;
  for (int i = 0; i < *hCount; i++) neg += hOut[i] < 0;
  if (neg != *hCount) { printf("negated %d of %d\n", neg, *hCount); ok = false; }
  printf("kept %d, sum of squares %lld, flags %u\n", *hCount, *hSum, flags);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
