// expect: none
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Release/acquire at cluster scope through global memory: rank 0 writes data,
// __syncthreads(), and thread 0 sets a global flag with st.release.cluster; rank 1's thread 0
// waits with ld.acquire.cluster, __syncthreads(), and rank 1 reads data. Both blocks are in the
// flag operations' scope (the cluster).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_global_release(int *data, unsigned *flag, int *out) {
    cg::cluster_group c = cg::this_cluster();
    if (c.block_rank() == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) asm volatile("st.release.cluster.global.u32 [%0], 1;" ::"l"(flag) : "memory");
    } else {
        if (threadIdx.x == 0) {
            unsigned v;
            do {
                asm volatile("ld.acquire.cluster.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
            } while (v == 0);
        }
        __syncthreads();
        out[threadIdx.x] = data[63 - threadIdx.x];
    }
    c.sync();
}
