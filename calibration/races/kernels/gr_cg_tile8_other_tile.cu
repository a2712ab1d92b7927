// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:512:zero
// Tiles of 8 in global memory: each lane writes its element, its tile's sync() orders only its own
// 8 lanes, and then it reads the element of the same lane in the neighbouring tile of its warp
// (t ^ 8): nothing orders the other tile's write before that read.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gr_cg_tile8_other_tile(int *a, int *out) {
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    int i = blockIdx.x * 64 + threadIdx.x;
    a[i] = i;
    tile.sync();
    out[i] = a[i ^ 8];
}
