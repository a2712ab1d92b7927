// expect: global_race
// launch: --grid 4 --block 64 --cooperative --arg buf:1024:zero
// A cooperative launch with two grid.sync() phases, but in the first phase each thread already
// reads its right neighbour (the next block's first element at the block edge) while it writes.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gr_grid_sync_phase_neighbour(int *a) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    int n = g.size();
    a[i] = i;
    int r = a[(i + 1) % n];
    g.sync();
    a[n + i] = r;
    g.sync();
    a[i] = a[n + (i + n - 1) % n];
}
