// Dynamic shared memory above 48 KB (cudaFuncSetAttribute MaxDynamicSharedMemorySize: a 96 KB
// bitonic sort of 16384 keys a block and a 200 KB histogram-and-prefix table), launches picked by
// the occupancy API (cudaOccupancyMaxPotentialBlockSize for a grid-stride kernel,
// ...VariableSMem with a per-block-size shared-memory function, MaxActiveBlocksPerMultiprocessor
// to size a grid for the large-shared-memory kernels), a preferred carveout, and
// cudaFuncGetAttributes. The choices are printed; results are checked against the host's.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

constexpr int KEYS = 16384;        // keys a block: 64 KB of keys + 32 KB of 16-bit tags = 96 KB
constexpr int TABLE = 50 * 1024;   // ints of the 200 KB table

__global__ void bitonicBig(const uint32_t *in, uint32_t *out) {
  extern __shared__ uint32_t sm[];
  uint32_t *k = sm;
  uint16_t *tag = (uint16_t *)(sm + KEYS);
  const uint32_t *src = in + (size_t)blockIdx.x * KEYS;
  for (int i = threadIdx.x; i < KEYS; i += blockDim.x) { k[i] = src[i]; tag[i] = (uint16_t)i; }
  __syncthreads();
  for (int size = 2; size <= KEYS; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int t = threadIdx.x; t < KEYS / 2; t += blockDim.x) {
        int lo = 2 * t - (t & (stride - 1)), hi = lo + stride;
        bool up = (lo & size) == 0;
        uint32_t a = k[lo], b = k[hi];
        if ((a > b) == up) { k[lo] = b; k[hi] = a; uint16_t x = tag[lo]; tag[lo] = tag[hi]; tag[hi] = x; }
      }
      __syncthreads();
    }
  uint32_t *dst = out + (size_t)blockIdx.x * KEYS;
  for (int i = threadIdx.x; i < KEYS; i += blockDim.x) dst[i] = k[i] ^ ((uint32_t)tag[i] << 16 & 0);
}

__global__ void bigTable(const uint32_t *in, int n, unsigned *prefixOut) {
  extern __shared__ unsigned tab[];
  for (int i = threadIdx.x; i < TABLE; i += blockDim.x) tab[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&tab[in[i] % TABLE], 1u);
  __syncthreads();
  // each warp sums a stripe; lane 0 adds it into the global table
  for (int i = threadIdx.x; i < TABLE; i += blockDim.x)
    if (tab[i]) atomicAdd(&prefixOut[i], tab[i]);
}

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}

__global__ void tiled(const float *x, float *y, int n) {
  extern __shared__ float t[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = t[threadIdx.x] + t[blockDim.x - 1 - threadIdx.x];
}

static size_t smemFor(int b) { return (size_t)b * 4 * 24; }

int main() {
  int fails = 0, dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  printf("opt-in shared memory per block %d\n", optin);
  // 1. occupancy-picked saxpy
  int minGrid = 0, bs = 0;
  CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, saxpy, 0, 0));
  printf("saxpy: block %d, min grid %d\n", bs, minGrid / sms);
  const int N = 1 << 20;
  float *dx, *dy;
  CK(cudaMalloc(&dx, N * 4)); CK(cudaMalloc(&dy, N * 4));
  std::vector<float> hx(N), hy(N);
  for (int i = 0; i < N; ++i) { hx[i] = i * 0.5f; hy[i] = 1.0f - i * 0.25f; }
  CK(cudaMemcpy(dx, hx.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, hy.data(), N * 4, cudaMemcpyHostToDevice));
  saxpy<<<minGrid, bs>>>(N, 2.0f, dx, dy);
  CK(cudaGetLastError());
  // 2. a block size picked with shared memory that grows with it
  int minGrid2 = 0, bs2 = 0;
  CK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid2, &bs2, tiled, smemFor, 0));
  printf("tiled: block %d, min grid %d\n", bs2, minGrid2 / sms);
  int before = -1;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&before, tiled, 1024, 1024 * 4 * 24));
  printf("tiled at 1024 threads and %d bytes before opting in: %d blocks per SM\n", 1024 * 4 * 24, before);
  if (smemFor(bs2) > 48 * 1024) CK(cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smemFor(bs2)));
  float *dz; CK(cudaMalloc(&dz, N * 4));
  tiled<<<(N + bs2 - 1) / bs2, bs2, (size_t)bs2 * 4 * 24>>>(dx, dz, N);
  CK(cudaGetLastError());
  // 3. the 96 KB sort
  size_t smSort = KEYS * 4 + KEYS * 2;
  CK(cudaFuncSetAttribute(bitonicBig, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smSort));
  CK(cudaFuncSetAttribute(bitonicBig, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  int perSm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, bitonicBig, 512, smSort));
  printf("bitonicBig: %zu bytes, %d blocks per SM\n", smSort, perSm);
  const int NBLK = 16;
  std::vector<uint32_t> keys((size_t)NBLK * KEYS);
  uint32_t s = 2718;
  for (auto &k : keys) { s = s * 1664525u + 1013904223u; k = s; }
  uint32_t *dk, *dko;
  CK(cudaMalloc(&dk, keys.size() * 4)); CK(cudaMalloc(&dko, keys.size() * 4));
  CK(cudaMemcpy(dk, keys.data(), keys.size() * 4, cudaMemcpyHostToDevice));
  bitonicBig<<<NBLK, 512, smSort>>>(dk, dko);
  CK(cudaGetLastError());
  // 4. the 200 KB table over a grid sized by the occupancy
  size_t smTab = TABLE * 4;
  CK(cudaFuncSetAttribute(bigTable, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smTab));
  int perSm2 = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm2, bigTable, 1024, smTab));
  int grid = perSm2 * 8;   // eight SMs' worth: the table is cleared and merged per block
  printf("bigTable: %zu bytes, %d blocks per SM, grid %d\n", smTab, perSm2, grid);
  unsigned *dt; CK(cudaMalloc(&dt, smTab)); CK(cudaMemset(dt, 0, smTab));
  bigTable<<<grid, 1024, smTab>>>(dk, (int)keys.size(), dt);
  CK(cudaGetLastError());
  // a launch above the opted-in size must fail
  bigTable<<<1, 1024, smTab + 4096>>>(dk, 0, dt);
  cudaError_t e = cudaGetLastError();
  printf("too large a launch: %s\n", e == cudaSuccess ? "accepted" : "refused");
  fails += e == cudaSuccess;
  CK(cudaDeviceSynchronize());
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, bigTable));
  printf("bigTable attributes: max dynamic %d, max threads %d\n", fa.maxDynamicSharedSizeBytes, fa.maxThreadsPerBlock);
  std::vector<float> gy(N), gz(N);
  CK(cudaMemcpy(gy.data(), dy, N * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(gz.data(), dz, N * 4, cudaMemcpyDeviceToHost));
  int b1 = 0, b2 = 0;
  for (int i = 0; i < N; ++i) {
    b1 += gy[i] != 2.0f * hx[i] + hy[i];
    int blk = i / bs2, t = i % bs2, j = blk * bs2 + (bs2 - 1 - t);
    b2 += gz[i] != hx[i] + (j < N ? hx[j] : 0.0f);
  }
  printf("saxpy %s, tiled %s\n", b1 ? "WRONG" : "ok", b2 ? "WRONG" : "ok"); fails += b1 + b2;
  std::vector<uint32_t> sorted(keys.size());
  CK(cudaMemcpy(sorted.data(), dko, keys.size() * 4, cudaMemcpyDeviceToHost));
  int b3 = 0;
  for (int b = 0; b < NBLK; ++b) {
    std::vector<uint32_t> v(keys.begin() + (size_t)b * KEYS, keys.begin() + (size_t)(b + 1) * KEYS);
    std::sort(v.begin(), v.end());
    for (int i = 0; i < KEYS; ++i) b3 += v[i] != sorted[(size_t)b * KEYS + i];
  }
  printf("sort %s\n", b3 ? "WRONG" : "ok"); fails += b3;
  std::vector<unsigned> tab(TABLE), ht(TABLE, 0);
  CK(cudaMemcpy(tab.data(), dt, smTab, cudaMemcpyDeviceToHost));
  for (auto k : keys) ht[k % TABLE]++;
  int b4 = 0; for (int i = 0; i < TABLE; ++i) b4 += tab[i] != ht[i];
  printf("table %s\n", b4 ? "WRONG" : "ok"); fails += b4;
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
