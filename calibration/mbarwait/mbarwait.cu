// mbarrier wait loops, to see how Nsight Compute counts the branches of a wait that may have to
// retry: each thread counts the try_wait / test_wait calls it made until its phase completed and
// the program prints the counts per launch, so the measured branch counters can be set beside the
// number of retries that actually happened.
//   ready      the phase completed before anyone waits (arrive, __syncthreads, then wait)
//   sleep NS   warp 0's lane 0 sleeps NS nanoseconds, then arrives; warp 1 waits (try_wait)
//   bulk       thread 0 arms the barrier with expect_tx and starts a 4 KiB bulk copy into shared
//              memory; both warps wait on the copy (try_wait), then sum what arrived
//   test NS    as sleep, with the non-blocking test_wait in the loop
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" ::"r"(smem(bar)),
                 "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ bool mbar_try_wait(uint64_t *bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok)
                 : "r"(smem(bar)), "r"(parity)
                 : "memory");
    return ok != 0;
}
__device__ __forceinline__ bool mbar_test_wait(uint64_t *bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok)
                 : "r"(smem(bar)), "r"(parity)
                 : "memory");
    return ok != 0;
}
// CUTLASS's form: the retry loop inside the asm (ClusterBarrier::wait)
__device__ __forceinline__ void mbar_wait_loop(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}" ::"r"(smem(bar)),
                 "r"(parity)
                 : "memory");
}

__global__ void ready(unsigned *spins)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) mbar_arrive(&bar);
    __syncthreads();
    unsigned n = 0;
    do ++n; while (!mbar_try_wait(&bar, 0));
    spins[threadIdx.x] = n;
}

__global__ void sleep_wait(unsigned *spins, unsigned ns, int test)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    unsigned n = 0;
    if (threadIdx.x < 32) {
        if (threadIdx.x == 0) {
            __nanosleep(ns);
            mbar_arrive(&bar);
        }
    } else if (test) {
        do ++n; while (!mbar_test_wait(&bar, 0));
    } else {
        do ++n; while (!mbar_try_wait(&bar, 0));
    }
    spins[threadIdx.x] = n;
}

// CUTLASS's wait (no count kept): warp 1 waits for warp 0's sleeping lane 0
__global__ void loop_wait(unsigned *out, unsigned ns)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        __nanosleep(ns);
        mbar_arrive(&bar);
    }
    if (threadIdx.x >= 32) mbar_wait_loop(&bar, 0);
    out[threadIdx.x] = threadIdx.x;
}

__global__ void bulk(const unsigned *src, unsigned *spins, unsigned *sum)
{
    __shared__ alignas(128) unsigned buf[1024];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect_tx(&bar, sizeof buf);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem(buf)),
                     "l"(src), "r"((unsigned)sizeof buf), "r"(smem(&bar))
                     : "memory");
    }
    unsigned n = 0;
    do ++n; while (!mbar_try_wait(&bar, 0));
    spins[threadIdx.x] = n;
    unsigned s = 0;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s += buf[i];
    atomicAdd(sum, s);
}

static void show(const char *what, unsigned *d)
{
    unsigned h[64];
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    unsigned w0 = 0, w1 = 0, mx = 0;
    for (int i = 0; i < 64; ++i) {
        (i < 32 ? w0 : w1) += h[i];
        if (h[i] > mx) mx = h[i];
    }
    printf("%s calls warp0 %u warp1 %u max %u\n", what, w0, w1, mx);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    unsigned *spins, *src, *sum;
    cudaMalloc(&spins, 64 * 4);
    cudaMalloc(&src, 4096);
    cudaMalloc(&sum, 4);
    unsigned h[1024];
    for (int i = 0; i < 1024; ++i) h[i] = i;
    cudaMemcpy(src, h, 4096, cudaMemcpyHostToDevice);
    char name[64];
    for (int r = 0; r < reps; ++r) {
        cudaMemset(spins, 0, 256);
        ready<<<1, 64>>>(spins);
        show("ready", spins);
    }
    const unsigned ns[] = {0, 2000, 20000, 200000};
    for (unsigned t : ns)
        for (int r = 0; r < reps; ++r) {
            cudaMemset(spins, 0, 256);
            sleep_wait<<<1, 64>>>(spins, t, 0);
            snprintf(name, sizeof name, "sleep %u", t);
            show(name, spins);
        }
    for (int r = 0; r < reps; ++r) {
        cudaMemset(spins, 0, 256);
        sleep_wait<<<1, 64>>>(spins, 20000, 1);
        show("test 20000", spins);
    }
    for (unsigned t : ns)
        for (int r = 0; r < reps; ++r) {
            loop_wait<<<1, 64>>>(spins, t);
            cudaDeviceSynchronize();
            printf("loop %u done\n", t);
        }
    for (int r = 0; r < reps; ++r) {
        cudaMemset(spins, 0, 256);
        cudaMemset(sum, 0, 4);
        bulk<<<1, 64>>>(src, spins, sum);
        show("bulk", spins);
        unsigned s;
        cudaMemcpy(&s, sum, 4, cudaMemcpyDeviceToHost);
        printf("bulk sum %u\n", s);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("status %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
