// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
// Cooperative-groups tiles of 8: each lane writes its slot, the tile's sync() orders the tile, and
// each lane reads the next lane's slot within its own tile (wrapping inside the tile).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_cg_tile8_within(int *out) {
    __shared__ int s[64];
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = t * 3;
    tile.sync();
    int base = t - tile.thread_rank();
    out[blockIdx.x * 64 + t] = s[base + (tile.thread_rank() + 1) % 8];
}
