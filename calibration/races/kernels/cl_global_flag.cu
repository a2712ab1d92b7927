// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:4:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Ordering through global memory inside a cluster: rank 1 fills rank 0's shared array,
// __syncthreads(), and thread 0 publishes a flag in global memory (__threadfence(), then an
// atomic). Rank 0's thread 0 waits for it with relaxed loads and a __threadfence() after them
// (the acquire side), __syncthreads(), and rank 0 reads the array: release/acquire at .gpu scope
// orders the distributed shared memory accesses of the two blocks.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_global_flag(int *out, unsigned *gflag) {
    __shared__ int data[64];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    c.sync();
    if (r == 1) {
        int *dst = c.map_shared_rank(data, 0);
        dst[threadIdx.x] = threadIdx.x + 5;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
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
