// expect: race
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A split cluster barrier whose arrival is .relaxed: it does not release the writes before it,
// so the peer's reads after the wait race with them.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_relaxed_arrive(int *out) {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    s[threadIdx.x] = threadIdx.x * 3 + r;
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    int *peer = c.map_shared_rank(s, r ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = peer[threadIdx.x];
    c.sync();
}
