// mbarrier (init, arrive, arrive_drop, expect_tx, complete_tx through a bulk copy, test_wait and
// try_wait by parity over several phases), cp.async.mbarrier.arrive.noinc, the 1-D bulk copy
// (cp.async.bulk) global -> shared with mbarrier completion and shared -> global with a bulk group,
// and fence.proxy.async. Only outcomes that do not depend on scheduling are written.
// Launch: grid 2, block 128. Args: out (2 x 3072 words), in (2 x 2048 bytes + 8192 bytes), gdst
// (2 x 1024 bytes).
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ unsigned test_wait(unsigned bar, unsigned parity)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(r) : "r"(bar), "r"(parity) : "memory");
    return r;
}

__device__ __forceinline__ unsigned try_wait(unsigned bar, unsigned parity)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(r) : "r"(bar), "r"(parity) : "memory");
    return r;
}

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity)
{
    while (!try_wait(bar, parity)) {
    }
}

extern "C" __global__ void mbarrierBulk(unsigned *out, const unsigned char *in, unsigned char *gdst)
{
    __shared__ __align__(8) unsigned long long bars[4];
    __shared__ __align__(128) unsigned char buf[2048];
    __shared__ __align__(16) unsigned cpbuf[128 * 4];
    unsigned tid = threadIdx.x;
    unsigned *o = out + blockIdx.x * 3072;
    unsigned b0 = smem(&bars[0]), b1 = smem(&bars[1]), b2 = smem(&bars[2]), b3 = smem(&bars[3]);
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b0), "r"(128) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b1), "r"(1) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b2), "r"(128) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b3), "r"(128) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    // phase 0 of bar0: every thread arrives
    unsigned long long st;
    (void)st;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b0) : "memory");
    wait_parity(b0, 0);
    o[tid] = test_wait(b0, 0) * 2 + test_wait(b0, 1);
    // bar2: half the threads drop out after phase 0; phase 1 then completes with 64 arrivals
    if (tid >= 64)
        asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b2) : "memory");
    else
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b2) : "memory");
    wait_parity(b2, 0);
    if (tid < 64) {
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b2) : "memory");
        wait_parity(b2, 1);
        o[128 + tid] = test_wait(b2, 1) * 2 + test_wait(b2, 0);
    }
    // bulk copy global -> shared, completed on bar1 through its transaction count
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(b1), "r"(2048) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(smem(buf)), "l"(in + blockIdx.x * 2048), "r"(2048), "r"(b1) : "memory");
    }
    wait_parity(b1, 0);
    for (unsigned k = tid; k < 512; k += 128) o[256 + k] = ((const unsigned *)buf)[k];
    // a second phase on bar1: expect_tx alone, then arrive, then two bulk copies of 1024 bytes
    if (tid == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b1), "r"(1024) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(smem(buf) + 1024), "l"(in + 4096 + blockIdx.x * 1024), "r"(1024), "r"(b1) : "memory");
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b1) : "memory");
    }
    wait_parity(b1, 1);
    for (unsigned k = tid; k < 512; k += 128) o[768 + k] = ((const unsigned *)buf)[k];
    o[1280 + tid] = test_wait(b1, 1) * 2 + test_wait(b1, 0);
    // cp.async with a noinc arrive on bar3 per thread
    const unsigned char *src = in + 4096 + 2048 + tid * 16;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(smem(&cpbuf[tid * 4])), "l"(src) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b3) : "memory");
    wait_parity(b3, 0);
    for (unsigned k = 0; k < 4; k++) o[1536 + tid * 4 + k] = cpbuf[((tid + 37) & 127) * 4 + k];
    // bulk copy shared -> global after a proxy fence
    for (unsigned k = tid; k < 512; k += 128) ((unsigned *)buf)[k] ^= 0x01020304u * (k + 1);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     :: "l"(gdst + blockIdx.x * 1024), "r"(smem(buf) + 512), "r"(1024) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    o[2048 + tid] = 0x600d0000u + tid;
}
