// expect: none
// launch: --grid 4 --block 64 --cooperative --arg buf:2048:zero --arg i32:6
// A Jacobi-style 1-D smoothing over 6 steps between two buffers, a grid.sync() after each step:
// every step reads one buffer (neighbours across block edges) and writes the other.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_grid_sync_pingpong(float *buf, int steps) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    int n = g.size();
    float *src = buf, *dst = buf + n;
    src[i] = (float)i;
    g.sync();
    for (int s = 0; s < steps; s++) {
        dst[i] = 0.25f * src[(i + n - 1) % n] + 0.5f * src[i] + 0.25f * src[(i + 1) % n];
        g.sync();
        float *tmp = src;
        src = dst;
        dst = tmp;
    }
}
