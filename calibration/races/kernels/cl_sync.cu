// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// The fill, cluster.sync(), the peer's array read, cluster.sync() again before either block
// exits: race-free distributed shared memory.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_sync(int *out) {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    s[threadIdx.x] = threadIdx.x + 100 * r;
    c.sync();
    int *peer = c.map_shared_rank(s, r ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = peer[threadIdx.x];
    c.sync();
}
