// expect: none
// launch: --grid 4 --block 64 --cooperative --arg buf:1024:zero --arg i32:4
// gr_grid_sync_loop_inplace with a second grid.sync() in each step, between the neighbour reads
// and the in-place write.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_grid_sync_loop_two_phase(float *buf, int steps) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    int n = g.size();
    buf[i] = (float)i;
    g.sync();
    for (int s = 0; s < steps; s++) {
        float v = 0.25f * buf[(i + n - 1) % n] + 0.5f * buf[i] + 0.25f * buf[(i + 1) % n];
        g.sync();
        buf[i] = v;
        g.sync();
    }
}
