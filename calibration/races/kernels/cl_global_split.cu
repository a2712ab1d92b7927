// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:1024:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A split cluster barrier with the write between the arrival and the wait: rank 0's write is
// not before its arrival, so rank 1's read after its wait is not ordered with it.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_global_split(int *buf, int *out) {
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    int *slice = buf + (blockIdx.x / 2) * 64;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    if (r == 0) slice[threadIdx.x] = threadIdx.x * 7;
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (r == 1) out[blockIdx.x * 64 + threadIdx.x] = slice[63 - threadIdx.x];
}
