// expect: none
// launch: --grid 4 --block 64 --cooperative --arg buf:1024 --arg buf:1024:zero
// A cooperative launch: phase 1 writes tmp, this_grid().sync(), phase 2 reads neighbours' tmp
// across block edges.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cg_grid_sync_stencil(const float *in, float *tmp) {
    cg::grid_group grid = cg::this_grid();
    int i = grid.thread_rank();
    int n = grid.size();
    tmp[i] = in[i] * 2.0f;
    grid.sync();
    float l = tmp[(i + n - 1) % n], r = tmp[(i + 1) % n];
    grid.sync();
    tmp[i] = 0.5f * (l + r);
}
