// Cluster occupancy queries: what cudaOccupancyMaxActiveClusters and
// cudaOccupancyMaxPotentialClusterSize answer for kernels of different block sizes, dynamic
// shared memory (so 1 to 16 blocks fit on an SM), register use and cluster shapes, next to
// cudaOccupancyMaxActiveBlocksPerMultiprocessor and the device's SM count; and the errors of
// bad cluster configurations. One line per query: the inputs, the status and the answer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void light(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (out) out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// many registers: 255 per thread at most, so a 256-thread block takes 65,280 of an SM's 65,536
__global__ void __launch_bounds__(256, 1) heavy(float *out, int n) {
  float acc[64];
#pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = out ? out[i * n + threadIdx.x] : i;
  float t = 0;
#pragma unroll
  for (int r = 0; r < 8; r++)
#pragma unroll
    for (int i = 0; i < 64; i++) t = t * acc[(i * 7 + r) % 64] + acc[i];
  if (out) out[threadIdx.x] = t;
}

__global__ void __cluster_dims__(2, 1, 1) fixed2(float *out) {
  if (out) out[blockIdx.x] = 1;
}

__global__ void __cluster_dims__(4, 2, 1) fixed8(float *out) {
  if (out) out[blockIdx.x] = 1;
}

static const char *name(cudaError_t e) { return e == cudaSuccess ? "ok" : cudaGetErrorName(e); }

static void clusters(const char *kname, const void *f, int threads, size_t smem, int cx, int cy, int cz,
                     bool attr) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute a[1];
  cfg.gridDim = dim3(cx * 4, cy, cz);
  cfg.blockDim = dim3(threads, 1, 1);
  cfg.dynamicSmemBytes = smem;
  if (attr) {
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cx;
    a[0].val.clusterDim.y = cy;
    a[0].val.clusterDim.z = cz;
    cfg.attrs = a;
    cfg.numAttrs = 1;
  }
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, f, &cfg);
  cudaGetLastError();
  int b = -1;
  cudaError_t eb = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, f, threads, smem);
  cudaGetLastError();
  printf("active %s threads %d smem %zu cluster %dx%dx%d attr %d: %s %d (blocks/SM %s %d)\n", kname, threads, smem,
         cx, cy, cz, attr ? 1 : 0, name(e), n, name(eb), b);
}

static void potential(const char *kname, const void *f, int threads, size_t smem) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64, 1, 1);
  cfg.blockDim = dim3(threads, 1, 1);
  cfg.dynamicSmemBytes = smem;
  int n = -1;
  cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, f, &cfg);
  cudaGetLastError();
  printf("potential %s threads %d smem %zu: %s %d\n", kname, threads, smem, name(e), n);
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("device %s SMs %d smem/SM %zu smem/block optin %zu regs/SM %d\n", p.name, p.multiProcessorCount,
         p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.regsPerMultiprocessor);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, (const void *)heavy);
  printf("heavy registers %d\n", fa.numRegs);
  cudaFuncGetAttributes(&fa, (const void *)light);
  printf("light registers %d\n", fa.numRegs);
  cudaFuncSetAttribute((const void *)light, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);

  const int threads[] = {32, 128, 256, 512, 1024};
  const size_t smems[] = {0, 20 * 1024, 50 * 1024, 100 * 1024, 120 * 1024, 227 * 1024};
  const int shapes[][3] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}, {5, 1, 1}, {6, 1, 1}, {7, 1, 1},
                           {8, 1, 1}, {1, 2, 1}, {2, 2, 1}, {2, 4, 1}, {2, 2, 2}, {1, 1, 8}};
  for (int t : threads)
    for (size_t s : smems) {
      for (auto &c : shapes) clusters("light", (const void *)light, t, s, c[0], c[1], c[2], true);
      potential("light", (const void *)light, t, s);
    }
  // cluster sizes over 8: refused without the non-portable attribute, then allowed
  const int big[][3] = {{16, 1, 1}, {9, 1, 1}, {12, 1, 1}, {4, 4, 1}};
  for (auto &c : big) clusters("light", (const void *)light, 128, 0, c[0], c[1], c[2], true);
  cudaFuncSetAttribute((const void *)light, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  for (int t : {128, 1024})
    for (size_t s : {(size_t)0, (size_t)50 * 1024, (size_t)120 * 1024}) {
      for (auto &c : big) clusters("light-np", (const void *)light, t, s, c[0], c[1], c[2], true);
      for (auto &c : shapes) clusters("light-np", (const void *)light, t, s, c[0], c[1], c[2], true);
      potential("light-np", (const void *)light, t, s);
    }
  // register-bound blocks
  for (int t : {64, 128, 256})
    for (auto &c : shapes) clusters("heavy", (const void *)heavy, t, 0, c[0], c[1], c[2], true);
  potential("heavy", (const void *)heavy, 256, 0);
  // compile-time cluster dimensions: no attribute, the same attribute, another one
  clusters("fixed2", (const void *)fixed2, 128, 0, 2, 1, 1, false);
  clusters("fixed2", (const void *)fixed2, 128, 0, 2, 1, 1, true);
  clusters("fixed2", (const void *)fixed2, 128, 0, 4, 1, 1, true);
  potential("fixed2", (const void *)fixed2, 128, 0);
  clusters("fixed8", (const void *)fixed8, 128, 0, 4, 2, 1, false);
  potential("fixed8", (const void *)fixed8, 128, 0);
  // bad inputs: no cluster at all, a grid that is not a whole number of clusters, too many
  // threads, too much shared memory
  clusters("light", (const void *)light, 128, 0, 1, 1, 1, false);
  {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute a[1];
    cfg.gridDim = dim3(3, 1, 1);
    cfg.blockDim = dim3(128, 1, 1);
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = 2;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (const void *)light, &cfg);
    cudaGetLastError();
    printf("active light grid 3 cluster 2: %s %d\n", name(e), n);
  }
  clusters("light", (const void *)light, 2048, 0, 2, 1, 1, true);
  clusters("light", (const void *)light, 128, 228 * 1024, 2, 1, 1, true);
  return 0;
}
