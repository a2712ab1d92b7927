// expect: race
// launch: --grid 2 --block 64 --arg tensormap:buf=1,type=f32,dims=64x64,box=32x8 --arg buf:16384:zero --arg buf:8192:zero
#include <cuda.h>
#include <stdint.h>
// As cl_tma_multicast, but every thread also reads the half the peer's multicast writes before
// its block's thread 0 has waited on the mbarrier: nothing orders that read with the peer's
// copy into this block (a read of the peer's bytes too early).
__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

extern "C" __global__ void __cluster_dims__(2, 1, 1)
    cl_tma_multicast_early(const __grid_constant__ CUtensorMap tm, const float *t, float *out) {
    __shared__ alignas(1024) float buf[2][256];
    __shared__ alignas(8) uint64_t bar;
    unsigned r, tid = threadIdx.x;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    for (unsigned i = tid; i < 512; i += 64) buf[i / 256][i % 256] = -1.0f;
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 2048;" ::"r"(sa(&bar)) : "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
    out[1024 + r * 64 + tid] = buf[r ^ 1][tid];
    if (tid == 0) {
        int x = (int)r * 32, y = 0;
        unsigned short mask = 3;
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                     ::"r"(sa(buf[r])), "l"(&tm), "r"(x), "r"(y), "r"(sa(&bar)), "h"(mask)
                     : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}"
                         : "=r"(done) : "r"(sa(&bar)) : "memory");
    }
    __syncthreads();
    for (unsigned i = tid; i < 512; i += 64) out[r * 512 + i] = buf[i / 256][i % 256];
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
