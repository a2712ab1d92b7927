// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// A thread_block_tile<32>::sync() where a block barrier is needed: warp 1 reads what warp 0 wrote.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sr_cg_tile32_across_warps(int *out) {
    __shared__ int s[64];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = t;
    tile.sync();
    out[t] = s[63 - t];
}
