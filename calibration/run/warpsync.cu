// Whole program: the classic warp-unrolled reduction that relies on lock-step warps (volatile, no
// __syncwarp). On CC 7.0+ (independent thread scheduling) its result and counters are not
// guaranteed: `warpscope run --check` names the intra-warp race; it is not matched against ncu.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void warpReduce(volatile int *s, unsigned tid) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void reduceUnrollWarp(const int *in, int *out) {
    __shared__ int s[128];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) warpReduce(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 4 * 128;
    int h[n], *d, *o, r[4];
    for (int i = 0; i < n; i++) h[i] = 1;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&o, sizeof(r));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    reduceUnrollWarp<<<4, 128>>>(d, o);
    cudaMemcpy(r, o, sizeof(r), cudaMemcpyDeviceToHost);
    printf("sums: %d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
