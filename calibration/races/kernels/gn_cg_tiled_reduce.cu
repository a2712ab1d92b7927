// expect: none
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:8:zero
// Cooperative groups: a block reduced by tiled_partition<16> shuffles, tile leaders' partial sums
// in shared memory after tile.sync()/block.sync(), then one atomicAdd per block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cg_tiled_reduce(const int *in, int *out) {
    __shared__ int partial[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
    block.sync();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < 8; ++k) s += partial[k];
        atomicAdd(out, s);
    }
}
