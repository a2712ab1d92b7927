// expect: race
// launch: --grid 2 --block 32 --arg buf:256:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// As cl_shfl_handoff, but rank 0's warp shuffles before lane 0 waits for the flag: the
// shuffle orders nothing after the acquire, so lanes 1..31 read rank 1's writes unordered.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_shfl_early(int *out) {
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
        unsigned v = __shfl_sync(0xffffffffu, l + 1, 0);
        if (l == 0) {
            unsigned f;
            do {
                asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(f) : "l"(&flag) : "memory");
            } while (f == 0);
        }
        out[l] = data[(l + 1) % 32] * v;
    }
    c.sync();
}
