// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Rank 1's lanes fill rank 0's array, __syncwarp(), and lane 0 sets rank 0's flag with a release
// store at cluster scope. In rank 0 only lane 0 waits for the flag (acquire loads); a
// __shfl_sync() of the whole warp then hands its acquire to the other lanes, which read the
// array. The shuffle is taken to order the lanes as __syncwarp() does (the assumption
// crates/analysis/src/warp_sync.rs states).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_shfl_handoff(int *out) {
    __shared__ int data[32];
    __shared__ unsigned flag;
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    unsigned l = threadIdx.x;
    if (l == 0) flag = 0;
    c.sync();
    if (r == 1) {
        int *dst = c.map_shared_rank(data, 0);
        dst[l] = l + 5;
        __syncwarp();
        if (l == 0) {
            unsigned *f = c.map_shared_rank(&flag, 0);
            asm volatile("st.release.cluster.u32 [%0], 1;" ::"l"(f) : "memory");
        }
    } else {
        unsigned v = 0;
        if (l == 0) {
            do {
                asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(&flag) : "memory");
            } while (v == 0);
        }
        v = __shfl_sync(0xffffffffu, v, 0);
        out[l] = data[(l + 1) % 32] * v;
    }
    c.sync();
}
