// expect: divergent_barrier
// launch: --grid 2 --block 64 --cooperative --arg buf:512:zero
// grid.sync() under a thread condition (threadIdx.x < 32): in every block half the threads skip
// the grid-wide barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void grid_sync_thread_branch(int *a) {
    cg::grid_group g = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    if (threadIdx.x < 32) g.sync();
    a[(i + 64) % 128] += 1;
}
