// expect: none
// launch: --grid 2 --block 32 --arg buf:256 --arg buf:256:zero
// Twin of gr_memset_global_vs_read: each block's thread 0 clears its own half with memset, a
// barrier, then the block reads its own half.
#include <cstring>
extern "C" __global__ void gn_memset_own_block_region(int *buf, int *out) {
    int *mine = buf + blockIdx.x * 32;
    if (threadIdx.x == 0) memset(mine, 0, 32 * sizeof(int));
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = mine[threadIdx.x] + 1;
}
