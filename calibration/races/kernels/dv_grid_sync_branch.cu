// expect: divergent_barrier
// launch: --grid 2 --block 32 --cooperative --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// grid.sync() reached by block 0 only: the grid-wide barrier never completes.
extern "C" __global__ void dv_grid_sync_branch(int *a) {
    cg::grid_group g = cg::this_grid();
    a[blockIdx.x * 32 + threadIdx.x] = 1;
    if (blockIdx.x == 0) g.sync();
    a[64 + blockIdx.x * 32 + threadIdx.x] = 2;
}
