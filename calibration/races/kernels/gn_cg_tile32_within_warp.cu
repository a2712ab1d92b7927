// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// The twin of sr_cg_tile32_across_warps: each lane reads a slot of its own warp after tile.sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_cg_tile32_within_warp(int *out) {
    __shared__ int s[64];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = t;
    tile.sync();
    out[t] = s[(t & ~31) + 31 - (t & 31)];
}
