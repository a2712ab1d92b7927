// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Every thread of the cluster adds to rank 0's counter with a shared::cluster atomic; rank 0 reads
// it after cluster.sync(): atomics do not race with atomics.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_atomic_counter(int *out) {
    __shared__ int count;
    cg::cluster_group c = cg::this_cluster();
    if (threadIdx.x == 0) count = 0;
    c.sync();
    int *dst = c.map_shared_rank(&count, 0);
    atomicAdd(dst, 1);
    c.sync();
    if (c.block_rank() == 0 && threadIdx.x == 0) out[0] = count;
    c.sync();
}
