// 64-bit atomicAdd on a shared counter: ptxas aggregates the warp's adds in one lane and loops on
// `ATOMS.CAST.SPIN.64` until its compare-and-swap succeeds. Prints the counter; exits 1 if wrong.
#include <cstdio>

__global__ void count64(unsigned long long *out) {
    __shared__ unsigned long long c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1ull);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = c;
}

int main() {
    const int blocks = 2, threads = 256;
    unsigned long long *d, h[blocks] = {};
    cudaMalloc(&d, sizeof h);
    count64<<<blocks, threads>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks; ++b) bad |= h[b] != threads;
    printf("counts %llu %llu\n", h[0], h[1]);
    return bad;
}
