// Thread-block clusters: what each block of a cluster knows of itself, read through cooperative
// groups' this_cluster() and the %cluster_* special registers, for a kernel compiled with
// __cluster_dims__, the same kernel body launched with cudaLaunchKernelEx and the cluster
// dimension attribute (a 3-D cluster), and a plain launch (implicit 1x1x1 clusters).
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ unsigned sreg_clusterid(int c) {
  unsigned v;
  if (c == 0) asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v));
  else if (c == 1) asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v));
  else asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(v));
  return v;
}
__device__ unsigned sreg_nclusterid(int c) {
  unsigned v;
  if (c == 0) asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v));
  else if (c == 1) asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v));
  else asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(v));
  return v;
}

__device__ void describe(unsigned *out) {
  cg::cluster_group c = cg::this_cluster();
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned *o = out + 16 * b;
  if (threadIdx.x == 0) {
    unsigned explicit_;
    asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(explicit_));
    o[0] = c.block_rank();
    o[1] = c.num_blocks();
    o[2] = c.block_index().x;
    o[3] = c.block_index().y;
    o[4] = c.block_index().z;
    o[5] = c.dim_blocks().x;
    o[6] = c.dim_blocks().y;
    o[7] = c.dim_blocks().z;
    o[8] = sreg_clusterid(0);
    o[9] = sreg_clusterid(1);
    o[10] = sreg_clusterid(2);
    o[11] = sreg_nclusterid(0);
    o[12] = sreg_nclusterid(1);
    o[13] = sreg_nclusterid(2);
    o[14] = explicit_;
    o[15] = c.num_threads();
  }
}

__global__ void __cluster_dims__(2, 2, 1) compiled(unsigned *out) { describe(out); }
__global__ void launched(unsigned *out) { describe(out); }

static int show(const char *what, unsigned *d, dim3 grid) {
  unsigned n = grid.x * grid.y * grid.z;
  unsigned h[16 * 64];
  CHECK(cudaMemcpy(h, d, 64 * n, cudaMemcpyDeviceToHost));
  printf("%s grid (%u,%u,%u)\n", what, grid.x, grid.y, grid.z);
  for (unsigned b = 0; b < n; ++b) {
    unsigned *o = h + 16 * b;
    printf("  block %2u: rank %u of %u, in cluster (%u,%u,%u) of (%u,%u,%u), cluster (%u,%u,%u) of (%u,%u,%u), explicit %u, threads %u\n",
           b, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15]);
  }
  return 0;
}

int main() {
  unsigned *d;
  CHECK(cudaMalloc(&d, 16 * 64 * sizeof(unsigned)));
  dim3 g1(4, 2, 2);
  CHECK(cudaMemset(d, 0xff, 16 * 64 * sizeof(unsigned)));
  compiled<<<g1, 64>>>(d);
  CHECK(cudaDeviceSynchronize());
  if (show("__cluster_dims__(2,2,1)", d, g1)) return 1;

  cudaLaunchConfig_t cfg = {};
  dim3 g2(2, 4, 4);
  cfg.gridDim = g2;
  cfg.blockDim = dim3(96, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 1;
  attr[0].val.clusterDim.y = 2;
  attr[0].val.clusterDim.z = 4;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaMemset(d, 0xff, 16 * 64 * sizeof(unsigned)));
  CHECK(cudaLaunchKernelEx(&cfg, launched, d));
  CHECK(cudaDeviceSynchronize());
  if (show("cudaLaunchKernelEx cluster (1,2,4)", d, g2)) return 1;

  dim3 g3(3, 1, 1);
  CHECK(cudaMemset(d, 0xff, 16 * 64 * sizeof(unsigned)));
  launched<<<g3, 32>>>(d);
  CHECK(cudaDeviceSynchronize());
  if (show("plain launch", d, g3)) return 1;

  // a grid that is not a whole number of clusters, and a cluster over the portable 8
  attr[0].val.clusterDim.x = 2; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(3, 1, 1);
  cudaError_t e = cudaLaunchKernelEx(&cfg, launched, d);
  printf("grid 3 in clusters of 2: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  attr[0].val.clusterDim.x = 16;
  cfg.gridDim = dim3(16, 1, 1);
  e = cudaLaunchKernelEx(&cfg, launched, d);
  printf("cluster of 16 without the non-portable attribute: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaFree(d));
  return 0;
}
