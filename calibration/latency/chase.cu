// Latency microbenchmarks for `warpscope latency`'s Hopper preset: one thread, a dependent chain,
// clock64() around it, cycles per step; each figure is the median over REPS launches.
//
//   shared      ld.shared.u32 pointer chase (indices), 4 KB ring in shared memory
//   l1_hit      ld.global.ca.u64 pointer chase, 4 KB ring (warmed: every load hits L1)
//   l2_hit      ld.global.cg.u64 (bypasses L1), 8 MB ring: larger than L1, inside the 50 MB L2
//   dram        ld.global.cg.u64, 1 GB ring in random cache-line order: misses L2 (TLB misses included)
//   dram_4k     ld.global.cg.u64, 1 GB ring, 4 KB stride within 2 MB pages visited in order (fewer TLB misses)
//   fma         fma.rn.f32 dependent chain (each FMA waits for the previous result)
//   clock       SM clock measured: clock64() cycles over %globaltimer nanoseconds on a ~50 ms spin
// Build and run: see run.sh beside this file.
// `warpscope calibrate` compiles the kernels with NVRTC (the host part is left out under
// __CUDACC_RTC__).
#ifdef __CUDACC_RTC__
typedef unsigned long long uint64_t;
#else
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>
#endif

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); exit(1); } } while (0)

static const int REPS = 15;

__global__ void chase_ca(const uint64_t *start, int steps, long long *cycles, uint64_t *sink) {
    const uint64_t *p = start;
    for (int i = 0; i < steps; i++) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));  // warm
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = (uint64_t)p;
}

__global__ void chase_cg(const uint64_t *start, int steps, int warm, long long *cycles, uint64_t *sink) {
    const uint64_t *p = start;
    for (int i = 0; i < warm; i++) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = (uint64_t)p;
}

__global__ void chase_shared(const unsigned *ring, int n, int steps, long long *cycles, unsigned *sink) {
    __shared__ unsigned s[1024];
    for (int i = 0; i < n; i++) s[i] = (unsigned)__cvta_generic_to_shared(&s[ring[i]]);
    __syncthreads();
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[0]);
    for (int i = 0; i < 64; i++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = a;
}

__global__ void fma_chain(float b, float c, int steps, long long *cycles, float *sink) {
    float a = b;
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a) : "f"(b), "f"(c));
    }
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = a;
}

__global__ void clock_spin(long long ns, long long *cycles, long long *elapsed) {
    uint64_t g0, g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    long long c0 = clock64();
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1)); } while ((long long)(g1 - g0) < ns);
    long long c1 = clock64();
    *cycles = c1 - c0;
    *elapsed = (long long)(g1 - g0);
}

#ifndef __CUDACC_RTC__
static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Builds a ring of 64-bit pointers over `bytes` of device memory, one node per `stride` bytes, in
// the order given (indices into the nodes); returns the device pointer of the first node.
static uint64_t *make_ring(uint64_t *dev, size_t bytes, size_t stride, const std::vector<size_t> &order) {
    size_t words = bytes / 8;
    std::vector<uint64_t> host(words, 0);
    size_t step = stride / 8;
    for (size_t i = 0; i < order.size(); i++) {
        size_t from = order[i] * step, to = order[(i + 1) % order.size()] * step;
        host[from] = (uint64_t)(dev + to);
    }
    CK(cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice));
    return dev + order[0] * step;
}

int main() {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0, mem_khz = 0, bus = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    printf("device\t%s\n", prop.name);
    printf("cc\t%d.%d\n", prop.major, prop.minor);
    printf("sm_count\t%d\n", prop.multiProcessorCount);
    printf("clock_khz_attr\t%d\n", clock_khz);
    printf("mem_clock_khz_attr\t%d\n", mem_khz);
    printf("bus_width_bits\t%d\n", bus);
    printf("l2_bytes\t%d\n", prop.l2CacheSize);
    printf("cuda_driver\t%d\n", driver);
    printf("cuda_runtime\t%d\n", runtime);

    long long *d_cyc, *d_el;
    uint64_t *d_sink;
    CK(cudaMalloc(&d_cyc, 8));
    CK(cudaMalloc(&d_el, 8));
    CK(cudaMalloc(&d_sink, 8));
    auto read_cycles = [&]() { long long c; CK(cudaMemcpy(&c, d_cyc, 8, cudaMemcpyDeviceToHost)); return c; };

    // Clock.
    {
        std::vector<double> mhz;
        for (int r = 0; r < 5; r++) {
            clock_spin<<<1, 1>>>(50000000LL, d_cyc, d_el);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            long long c = read_cycles(), ns;
            CK(cudaMemcpy(&ns, d_el, 8, cudaMemcpyDeviceToHost));
            mhz.push_back((double)c / (double)ns * 1000.0);
        }
        printf("sm_clock_mhz_measured\t%.0f\n", median(mhz));
    }
    std::mt19937_64 rng(12345);
    // Shared.
    {
        int n = 1024;
        std::vector<unsigned> perm(n);
        for (int i = 0; i < n; i++) perm[i] = i;
        std::shuffle(perm.begin() + 1, perm.end(), rng);
        std::vector<unsigned> next(n);
        for (int i = 0; i < n; i++) next[perm[i]] = perm[(i + 1) % n];
        unsigned *d_ring;
        CK(cudaMalloc(&d_ring, n * 4));
        CK(cudaMemcpy(d_ring, next.data(), n * 4, cudaMemcpyHostToDevice));
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            chase_shared<<<1, 1>>>(d_ring, n, 4096, d_cyc, (unsigned *)d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / 4096.0);
        }
        printf("shared_cycles\t%.1f\n", median(v));
    }
    // FMA.
    {
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            fma_chain<<<1, 1>>>(0.999f, 0.001f, 1024, d_cyc, (float *)d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / (1024.0 * 16));
        }
        printf("fma_cycles\t%.2f\n", median(v));
    }
    // L1 hit: 4 KB ring, 64-byte stride, random order.
    size_t big = 1ull << 30;
    uint64_t *d_buf;
    CK(cudaMalloc(&d_buf, big));
    size_t flush_bytes = 256ull << 20;  // 5x the L2
    void *d_flush;
    CK(cudaMalloc(&d_flush, flush_bytes));
    {
        size_t bytes = 4096, stride = 64, n = bytes / stride;
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; i++) order[i] = i;
        std::shuffle(order.begin() + 1, order.end(), rng);
        uint64_t *start = make_ring(d_buf, bytes, stride, order);
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            chase_ca<<<1, 1>>>(start, 4096, d_cyc, d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / 4096.0);
        }
        printf("l1_hit_cycles\t%.1f\n", median(v));
    }
    // L2 hit: 8 MB ring, 128-byte stride, random order, .cg loads (L1 bypassed), warmed.
    {
        size_t bytes = 8ull << 20, stride = 128, n = bytes / stride;
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; i++) order[i] = i;
        std::shuffle(order.begin() + 1, order.end(), rng);
        uint64_t *start = make_ring(d_buf, bytes, stride, order);
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            chase_cg<<<1, 1>>>(start, 8192, (int)n, d_cyc, d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / 8192.0);
        }
        printf("l2_hit_cycles\t%.1f\n", median(v));
    }
    // DRAM: 1 GB, one node per 64 KB region in random order; L2 flushed before each launch.
    {
        size_t stride = 65536, n = big / stride;
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; i++) order[i] = i;
        std::shuffle(order.begin() + 1, order.end(), rng);
        uint64_t *start = make_ring(d_buf, big, stride, order);
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            CK(cudaMemset(d_flush, r + 1, flush_bytes));  // evict the ring from L2
            chase_cg<<<1, 1>>>(start, 4096, 0, d_cyc, d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / 4096.0);
        }
        printf("dram_random_cycles\t%.1f\n", median(v));
    }
    // DRAM with fewer TLB misses: 4 KB stride, in address order within each 2 MB page, pages shuffled.
    {
        size_t stride = 4096, per_page = (2u << 20) / stride, pages = big / (2u << 20);
        std::vector<size_t> page(pages);
        for (size_t i = 0; i < pages; i++) page[i] = i;
        std::shuffle(page.begin(), page.end(), rng);
        std::vector<size_t> order;
        for (size_t p : page) for (size_t k = 0; k < per_page; k++) order.push_back(p * per_page + k);
        uint64_t *start = make_ring(d_buf, big, stride, order);
        std::vector<double> v;
        for (int r = 0; r < REPS; r++) {
            CK(cudaMemset(d_flush, r + 1, flush_bytes));  // evict the ring from L2
            chase_cg<<<1, 1>>>(start, 4096, 0, d_cyc, d_sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            v.push_back(read_cycles() / 4096.0);
        }
        printf("dram_4k_stride_cycles\t%.1f\n", median(v));
    }
    // Device-to-device copy bandwidth, 1 GB halves, median of 10 (bytes read + written).
    {
        size_t half = big / 2;
        cudaEvent_t a, b;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        CK(cudaMemcpy((char *)d_buf + half, d_buf, half, cudaMemcpyDeviceToDevice));
        std::vector<double> v;
        for (int r = 0; r < 10; r++) {
            CK(cudaEventRecord(a));
            CK(cudaMemcpy((char *)d_buf + half, d_buf, half, cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            v.push_back(2.0 * half / (ms * 1e-3) / 1e9);
        }
        printf("d2d_copy_gbs\t%.0f\n", median(v));
    }
    return 0;
}
#endif  // __CUDACC_RTC__
