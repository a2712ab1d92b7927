// Control: the same hand-off with __threadfence() after the data and after the flag is seen (no race).
#include "common.cuh"

__global__ void handoff(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {
            }
            __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

int main() {
    int *data, *flag, *out;
    CHECK(cudaMalloc(&data, 64 * sizeof(int)));
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK(cudaMemset(data, 0, 64 * sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    handoff<<<2, 64>>>(data, flag, out);
    finish("handoff");
    CHECK(cudaFree(data));
    CHECK(cudaFree(flag));
    CHECK(cudaFree(out));
    return 0;
}
