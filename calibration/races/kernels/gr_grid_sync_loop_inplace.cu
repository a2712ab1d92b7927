// expect: global_race
// launch: --grid 4 --block 64 --cooperative --arg buf:1024:zero --arg i32:4
// gn_grid_sync_pingpong done in place: one buffer, one grid.sync() per step. Within a step thread
// i reads its neighbours i - 1 and i + 1 while they write their own cells (across block edges too).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gr_grid_sync_loop_inplace(float *buf, int steps) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    int n = g.size();
    buf[i] = (float)i;
    g.sync();
    for (int s = 0; s < steps; s++) {
        float v = 0.25f * buf[(i + n - 1) % n] + 0.5f * buf[i] + 0.25f * buf[(i + 1) % n];
        buf[i] = v;
        g.sync();
    }
}
