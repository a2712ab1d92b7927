// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:8:zero
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
// cg::reduce over a thread_block_tile<32>, each tile's leader adding its sum with atomicAdd.
extern "C" __global__ void gn_cg_reduce_tile(const int *in, int *out) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = cg::reduce(tile, in[i] & 255, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(&out[blockIdx.x], s);
}
