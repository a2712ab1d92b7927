// Facility-location gain of opening a candidate centre (the streamcluster shape): the candidate's
// coordinates go to shared memory, each thread computes its point's weighted distance to the
// candidate, and points that would move set a bit in a switch bitmap (atomicOr) and add their
// saving to their current centre's account in shared memory and then global (integer atomics on
// fixed-point costs); the host opens the candidate when the gain is positive and reassigns.
#include <cstdio>
#include <cmath>
#define DIM 8
#define KMAX 16
__global__ void gain(const float *pt, const float *wt, const int *assign, const float *cost, int n, int x,
                     unsigned *sw, int *lower, int *block_gain)
{
    __shared__ float cand[DIM];
    __shared__ int acc[KMAX];
    __shared__ int blk;
    int tx = threadIdx.x, i = blockIdx.x * blockDim.x + tx;
    if (tx < DIM) cand[tx] = pt[x * DIM + tx];
    if (tx < KMAX) acc[tx] = 0;
    if (tx == 0) blk = 0;
    __syncthreads();
    if (i < n) {
        float d = 0.f;
        for (int k = 0; k < DIM; ++k) { float t = pt[i * DIM + k] - cand[k]; d += t * t; }
        float c = d * wt[i];
        if (c < cost[i]) {
            atomicOr(&sw[i >> 5], 1u << (i & 31));
            int save = (int)((cost[i] - c) * 1024.f);
            atomicAdd(&blk, save);
        } else {
            int save = (int)((cost[i] - c) * 1024.f);     // negative: what closing its centre would cost
            atomicAdd(&acc[assign[i]], save);
        }
    }
    __syncthreads();
    if (tx < KMAX && acc[tx] != 0) atomicAdd(&lower[tx], acc[tx]);
    if (tx == 0) block_gain[blockIdx.x] = blk;
}
__global__ void reassign(const float *pt, const float *wt, int *assign, float *cost, const unsigned *sw, int n, int x, int slot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (sw[i >> 5] & (1u << (i & 31))) {
        float d = 0.f;
        for (int k = 0; k < DIM; ++k) { float t = pt[i * DIM + k] - pt[x * DIM + k]; d += t * t; }
        assign[i] = slot;
        cost[i] = d * wt[i];
    }
}
int main()
{
    const int n = 6000, cands = 10;
    float *pt = new float[n * DIM], *wt = new float[n], *cost = new float[n];
    int *asg = new int[n];
    unsigned s = 31;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) % 10000) / 10000.f; };
    for (int i = 0; i < n; ++i) {
        int g = i % 6;
        for (int k = 0; k < DIM; ++k) pt[i * DIM + k] = (k == g ? 3.f : 0.f) + rnd();
        wt[i] = 1.f + (i % 3);
    }
    for (int i = 0; i < n; ++i) {
        float d = 0.f;
        for (int k = 0; k < DIM; ++k) { float t = pt[i * DIM + k] - pt[k]; d += t * t; }
        asg[i] = 0; cost[i] = d * wt[i];
    }
    float *dpt, *dwt, *dcost; int *dasg, *dlow, *dbg; unsigned *dsw;
    int blocks = (n + 255) / 256;
    cudaMalloc(&dpt, n * DIM * 4); cudaMalloc(&dwt, n * 4); cudaMalloc(&dcost, n * 4); cudaMalloc(&dasg, n * 4);
    cudaMalloc(&dlow, KMAX * 4); cudaMalloc(&dbg, blocks * 4); cudaMalloc(&dsw, (n + 31) / 32 * 4);
    cudaMemcpy(dpt, pt, n * DIM * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dwt, wt, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dcost, cost, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dasg, asg, n * 4, cudaMemcpyHostToDevice);
    int centres = 1;
    int *bg = new int[blocks];
    int low[KMAX];
    unsigned *sw = new unsigned[(n + 31) / 32];
    int bad = 0;
    printf("sclust points %d candidates %d\n", n, cands);
    for (int c = 0; c < cands && centres < KMAX; ++c) {
        int x = (c * 611 + 1) % n;
        cudaMemset(dsw, 0, (n + 31) / 32 * 4); cudaMemset(dlow, 0, KMAX * 4);
        gain<<<blocks, 256>>>(dpt, dwt, dasg, dcost, n, x, dsw, dlow, dbg);
        cudaMemcpy(bg, dbg, blocks * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(low, dlow, KMAX * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(sw, dsw, (n + 31) / 32 * 4, cudaMemcpyDeviceToHost);
        long long g = 0; int moving = 0;
        for (int b = 0; b < blocks; ++b) g += bg[b];
        for (int i = 0; i < (n + 31) / 32; ++i) moving += __builtin_popcount(sw[i]);
        // the host's own count of movers (costs as the GPU holds them)
        cudaMemcpy(cost, dcost, n * 4, cudaMemcpyDeviceToHost);
        int check = 0;
        for (int i = 0; i < n; ++i) {
            float d = 0.f;
            for (int k = 0; k < DIM; ++k) { float t = pt[i * DIM + k] - pt[x * DIM + k]; d += t * t; }
            check += d * wt[i] < cost[i];
        }
        if (abs(check - moving) > n / 100) ++bad;
        bool open = g > 1024L * 50;
        printf("  candidate %d: %d move, gain %lld, centre 0 account %d -> %s\n", x, moving, g, low[0], open ? "open" : "skip");
        if (open) {
            reassign<<<blocks, 256>>>(dpt, dwt, dasg, dcost, dsw, n, x, centres);
            ++centres;
        }
    }
    cudaMemcpy(cost, dcost, n * 4, cudaMemcpyDeviceToHost);
    double total = 0;
    for (int i = 0; i < n; ++i) total += cost[i];
    printf("  centres %d total cost %.2f\n", centres, total);
    printf("  %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
