// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:1024:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// The cluster barrier orders global memory too: rank 0 writes its cluster's slice of buf,
// cluster.sync(), and rank 1 reads what rank 0 wrote (two clusters of two blocks).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_global_sync(int *buf, int *out) {
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    int *slice = buf + (blockIdx.x / 2) * 64;
    if (r == 0) slice[threadIdx.x] = threadIdx.x * 7;
    c.sync();
    if (r == 1) out[blockIdx.x * 64 + threadIdx.x] = slice[63 - threadIdx.x];
}
