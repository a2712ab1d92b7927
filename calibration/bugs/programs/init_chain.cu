// Control: every byte a kernel reads was written first: by a copy, a memset, a device-to-device
// copy, an earlier launch, the block itself earlier (a scratch buffer in global memory), or an
// earlier block of the same launch behind a fence and a counter (the last-block pattern).
#include "common.cuh"

__device__ unsigned int done = 0;

__global__ void partial(const int *in, int *part, int *scratch, int *total) {
    int b = blockIdx.x, t = threadIdx.x;
    scratch[b * blockDim.x + t] = in[b * blockDim.x + t] * 3;  // written by this thread...
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int k = 0; k < blockDim.x; ++k) s += scratch[b * blockDim.x + k];  // ...read by thread 0
        part[b] = s;
        __threadfence();
        unsigned v = atomicInc(&done, gridDim.x);
        if (v == gridDim.x - 1) {  // the last block sums what the others wrote
            int all = 0;
            for (int k = 0; k < gridDim.x; ++k) all += part[k];
            *total = all;
            done = 0;
        }
    }
}

__global__ void use(const int *copy, const int *zeros, const int *total, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = copy[i] + zeros[i] + *total;
}

int main() {
    const int blocks = 4, threads = 64, n = blocks * threads;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i % 11;
    int *in, *part, *scratch, *total, *copy, *zeros, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&part, blocks * sizeof(int)));
    CHECK(cudaMalloc(&scratch, n * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMalloc(&copy, n * sizeof(int)));
    CHECK(cudaMalloc(&zeros, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(zeros, 0, n * sizeof(int)));
    CHECK(cudaMemcpy(copy, in, sizeof(h), cudaMemcpyDeviceToDevice));
    partial<<<blocks, threads>>>(in, part, scratch, total);
    finish("partial");
    use<<<blocks, threads>>>(copy, zeros, total, out);
    finish("use");
    CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    printf("out[0] = %d out[%d] = %d\n", h[0], n - 1, h[n - 1]);
    for (int *p : {in, part, scratch, total, copy, zeros, out}) CHECK(cudaFree(p));
    return 0;
}
