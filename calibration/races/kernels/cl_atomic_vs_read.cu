// expect: race
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Rank 1 adds to rank 0's counter atomically while rank 0 reads it with a plain load, before the
// cluster barrier that would order them.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_atomic_vs_read(int *out) {
    __shared__ int count;
    cg::cluster_group c = cg::this_cluster();
    if (threadIdx.x == 0) count = 0;
    c.sync();
    if (c.block_rank() == 1) {
        atomicAdd(c.map_shared_rank(&count, 0), 1);
    } else if (threadIdx.x == 0) {
        out[0] = count;
    }
    c.sync();
}
