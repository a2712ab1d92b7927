// expect: race
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Rank 1 writes into rank 0's array while rank 0 reads it, the only cluster barrier at the end.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_remote_write(int *out) {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    if (r == 0) s[threadIdx.x] = 7;
    __syncthreads();
    if (r == 1) {
        int *dst = c.map_shared_rank(s, 0);
        dst[threadIdx.x] = threadIdx.x;
    } else {
        out[threadIdx.x] = s[threadIdx.x];
    }
    c.sync();
}
