// expect: none
// launch: --grid 4 --block 64 --cooperative --arg buf:1024:zero --arg buf:1024:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Two phases ordered by grid.sync() in a cooperative launch.
extern "C" __global__ void gn_grid_sync_two_phase(float *a, float *b) {
    cg::grid_group g = cg::this_grid();
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 0.5f;
    g.sync();
    b[i] = a[n - 1 - i] + 1.0f;
}
