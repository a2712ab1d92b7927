// expect: race
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:4:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// As cl_global_flag, but rank 1 sets the global flag with no fence before it: the atomic is
// no release, so rank 0's acquire of the flag orders nothing, and its reads of the array race
// with rank 1's remote writes.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_global_flag_nofence(int *out, unsigned *gflag) {
    __shared__ int data[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    c.sync();
    if (r == 1) {
        int *dst = c.map_shared_rank(data, 0);
        dst[threadIdx.x] = threadIdx.x + 5;
        __syncthreads();
        if (threadIdx.x == 0) {
            atomicExch(gflag, 1u);
        }
    } else {
        if (threadIdx.x == 0) {
            unsigned v;
            do {
                asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(gflag) : "memory");
            } while (v == 0u);
            __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
    c.sync();
}
