// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Rank 1 fills rank 0's array, __syncthreads(), and one thread sets rank 0's flag with a
// release store at cluster scope; rank 0 spins on the flag with acquire loads, then reads.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_flag_release(int *out) {
    __shared__ int data[64];
    __shared__ unsigned flag;
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    if (threadIdx.x == 0) flag = 0;
    c.sync();
    if (r == 1) {
        int *dst = c.map_shared_rank(data, 0);
        dst[threadIdx.x] = threadIdx.x + 5;
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned *f = c.map_shared_rank(&flag, 0);
            asm volatile("st.release.cluster.u32 [%0], 1;" ::"l"(f) : "memory");
        }
    } else {
        if (threadIdx.x == 0) {
            unsigned v;
            do {
                asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(&flag) : "memory");
            } while (v == 0);
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
    c.sync();
}
