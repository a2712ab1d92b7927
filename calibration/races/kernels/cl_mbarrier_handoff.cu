// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Rank 1 fills rank 0's array, __syncthreads(), then one thread arrives (release, cluster scope)
// on rank 0's mbarrier; rank 0 waits on the phase (acquire) and reads the array: race-free.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_mbarrier_handoff(int *out) {
    __shared__ int data[64];
    __shared__ unsigned long long bar;
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    c.sync();
    if (r == 1) {
        int *dst = c.map_shared_rank(data, 0);
        dst[threadIdx.x] = threadIdx.x * 2;
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned rb;
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rb) : "r"(b));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rb) : "memory");
        }
    } else {
        asm volatile("{ .reg .pred p; W%=: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], 0; @!p bra W%=; }"
                     ::"r"(b) : "memory");
        out[threadIdx.x] = data[threadIdx.x];
    }
    c.sync();
}
