// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// A tile of 16 synchronises with tile.sync() (a __syncwarp of its 16 lanes) and then reads a slot
// the other tile of the warp writes: tile.sync() does not order the two tiles.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cg_tile_sync_other_tile(int *out) {
    __shared__ int s[32];
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = t * 3;
    tile.sync();
    out[t] = s[(t + 16) % 32];
}
