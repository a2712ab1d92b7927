// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// block.sync() (cooperative groups' __syncthreads) in a branch only the first 40 threads take.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cg_block_sync_branch(int *a) {
    cg::thread_block block = cg::this_thread_block();
    int t = block.thread_rank();
    a[t] = t;
    if (t < 40) block.sync();
    a[t] += a[(t + 1) % 64];
}
