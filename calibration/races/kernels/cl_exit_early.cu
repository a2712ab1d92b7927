// expect: exit_before_remote_access
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// The peer's array is read after a cluster.sync(), but no cluster barrier follows: a block may
// exit (and its shared memory end) while the other still reads it.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_exit_early(int *out) {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    s[threadIdx.x] = threadIdx.x + 100 * r;
    c.sync();
    int *peer = c.map_shared_rank(s, r ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = peer[threadIdx.x];
}
