// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero --arg i32:300
// 300 rounds of a ping-pong through global memory between the two blocks of a cluster, each
// round ordered by cluster.sync(): in round k the block of rank k%2 writes buf[lane] and the
// other reads it after the barrier. Every pair is ordered by the cluster barrier of its round,
// also after the 255th phase (race-free; the twin cl_many_phases_split reads before the wait).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_many_phases(int *buf, int rounds) {
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    int acc = 0;
    for (int k = 0; k < rounds; k++) {
        if ((unsigned)(k & 1) == r) buf[threadIdx.x] = k + (int)threadIdx.x;
        c.sync();
        if ((unsigned)(k & 1) != r) acc += buf[threadIdx.x];
        c.sync();
    }
    buf[32 + r * 32 + threadIdx.x] = acc;
}
