// expect: divergent_barrier
// launch: --grid 3 --block 32 --cooperative --arg buf:384:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// grid.sync() in a loop of blockIdx.x + 1 iterations: block 0 syncs once, block 2 three times, so
// the grid-wide barrier's later phases are never completed.
extern "C" __global__ void dv_grid_sync_loop_blockid(int *a) {
    cg::grid_group g = cg::this_grid();
    for (unsigned k = 0; k <= blockIdx.x; ++k) {
        a[blockIdx.x * 32 + threadIdx.x] += k;
        g.sync(); // <-
    }
}
