// Dynamic parallelism and races between grids, for `warpscope run --check`: a parent that reads
// what its child writes right after launching it (a race: the parent cannot wait for its child),
// a parent whose tail launch reads what the block wrote before a barrier and the launch
// (race-free), and a child that itself launches a grandchild and then reads what the grandchild
// writes (a race between the child and the grandchild).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a) { a[threadIdx.x] = 2 * threadIdx.x + 1; }

__global__ void parent_reads(int *a, int *out) {
    if (threadIdx.x == 0) fill<<<1, 32>>>(a);
    out[threadIdx.x] = a[threadIdx.x];
}

__global__ void sum_tail(const int *a, int *out) {
    int s = 0;
    for (int i = 0; i < 32; i++) s += a[i];
    out[threadIdx.x] = s;
}

__global__ void parent_tail(int *a, int *out) {
    a[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) sum_tail<<<1, 32, 0, cudaStreamTailLaunch>>>(a, out);
}

__global__ void middle(int *a, int *out) {
    if (threadIdx.x == 0) fill<<<1, 32>>>(a);
    out[threadIdx.x] = a[threadIdx.x] + 1;
}

__global__ void top(int *a, int *out) {
    if (threadIdx.x == 0) middle<<<1, 32>>>(a, out);
}

int main() {
    int *a, *out;
    cudaMalloc(&a, 3 * 32 * sizeof(int));
    cudaMalloc(&out, 3 * 32 * sizeof(int));
    cudaMemset(a, 0, 3 * 32 * sizeof(int));
    parent_reads<<<1, 32>>>(a, out);
    parent_tail<<<1, 32>>>(a + 32, out + 32);
    top<<<1, 32>>>(a + 64, out + 64);
    cudaError_t e = cudaDeviceSynchronize();
    int h[96];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("synchronize %s, tail sum %d\n", cudaGetErrorName(e), h[32]);
    return e == cudaSuccess && h[32] == 496 ? 0 : 1;
}
