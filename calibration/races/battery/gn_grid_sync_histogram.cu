// expect: none
// launch: --grid 4 --block 64 --cooperative --arg buf:1024 --arg buf:64:zero --arg buf:1024:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A histogram in one cooperative kernel: block 0 clears the bins, grid.sync(), every thread adds
// its element with atomicAdd, grid.sync(), every thread reads a bin.
extern "C" __global__ void gn_grid_sync_histogram(const int *in, int *bins, int *out) {
    cg::grid_group g = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0 && threadIdx.x < 16) bins[threadIdx.x] = 0;
    g.sync();
    atomicAdd(&bins[in[i] & 15], 1);
    g.sync();
    out[i] = bins[i & 15];
}
