// Planted bug: a producer block writes data and sets a flag; consumer blocks wait for the flag and
// read the data. Without __threadfence() on either side the flag orders nothing (a global race).
#include "common.cuh"

__global__ void handoff(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {
            }
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
