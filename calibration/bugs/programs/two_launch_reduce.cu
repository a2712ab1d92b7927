// Control: per-block partial sums in one launch, summed by a second launch (the stream orders them),
// and the Programming Guide's last-block pattern (__threadfence() and a counter). No race.
#include "common.cuh"

__global__ void partial_sums(const int *in, int *partial) {
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void final_sum(const int *partial, int *out, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < n; ++i) t += partial[i];
        *out = t;
    }
}

__device__ unsigned int arrived = 0;
__global__ void last_block(const int *partial, int *out) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        unsigned v = atomicInc(&arrived, gridDim.x);
        last = (v == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < gridDim.x; ++i) t += partial[i];
        out[1] = t;
        arrived = 0;
    }
}

int main() {
    const int blocks = 8, n = blocks * 256;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i % 5;
    int *in, *partial, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&out, 2 * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    partial_sums<<<blocks, 256>>>(in, partial);
    final_sum<<<1, 32>>>(partial, out, blocks);
    last_block<<<blocks, 32>>>(partial, out);
    finish("reduce");
    int got[2];
    CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
    printf("sums %d %d\n", got[0], got[1]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(out));
    return 0;
}
