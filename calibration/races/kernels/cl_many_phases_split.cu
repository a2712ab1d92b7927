// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg i32:300
// The twin of cl_many_phases: the same 300 ordered rounds, then one more in which the reader reads
// between its barrier.cluster.arrive and its wait, so the writer's write (before its own arrival)
// is not ordered before the read (race after 600 cluster barrier phases).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_many_phases_split(int *buf, int rounds) {
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    int acc = 0;
    for (int k = 0; k < rounds; k++) {
        if ((unsigned)(k & 1) == r) buf[threadIdx.x] = k + (int)threadIdx.x;
        c.sync();
        if ((unsigned)(k & 1) != r) acc += buf[threadIdx.x];
        c.sync();
    }
    if (r == 0) buf[threadIdx.x] = 7 * (int)threadIdx.x;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    if (r == 1) acc += buf[threadIdx.x];
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    buf[32 + r * 32 + threadIdx.x] = acc;
}
