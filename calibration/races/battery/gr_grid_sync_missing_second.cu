// expect: global_race
// launch: --grid 4 --block 32 --cooperative --arg buf:512 --arg buf:512:zero --arg buf:128:zero --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A column sum over blocks with one grid.sync() where two are needed: block 0 writes the totals
// after the first, and the other blocks read them with no grid.sync() between.
extern "C" __global__ void gr_grid_sync_missing_second(const float *in, float *part, float *total,
                                                       float *out) {
    cg::grid_group g = cg::this_grid();
    int t = threadIdx.x, i = blockIdx.x * 32 + t;
    part[i] = in[i] * 2.0f;
    g.sync();
    if (blockIdx.x == 0) {
        float s = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) s += part[b * 32 + t];
        total[t] = s; // <-
    }
    out[i] = part[i] / total[t]; // <-
}
