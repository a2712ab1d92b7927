// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A split cluster barrier: the writes before barrier.cluster.arrive (release), independent work,
// barrier.cluster.wait (acquire), then the peer's array; cluster.sync() before exit.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_split_arrive(int *out) {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    s[threadIdx.x] = threadIdx.x * 3 + r;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    out[256 + blockIdx.x * 64 + threadIdx.x] = threadIdx.x;
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    int *peer = c.map_shared_rank(s, r ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = peer[threadIdx.x];
    c.sync();
}
