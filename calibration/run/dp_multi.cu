// Dynamic parallelism: one kernel launched from several blocks at once, and from several threads
// of a block, each child writing its own slice; then a recursion of depth 6 whose every level
// records its depth and checks its parent's record.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int *out, int tag) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = tag * 1000 + blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void launcher(int *out) {
    // threads 0 and 32 of every block each launch a child of 2 blocks x 32 threads
    if (threadIdx.x % 32 == 0) {
        int slot = blockIdx.x * 2 + threadIdx.x / 32;
        child<<<2, 32>>>(out + slot * 64, slot);
    }
}

__global__ void deep(int *marks, int depth, int max_depth, int *errors) {
    // the parent wrote marks[depth - 1] = depth - 1 before launching this grid
    if (depth > 0 && marks[depth - 1] != depth - 1) atomicAdd(errors, 1);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        marks[depth] = depth;
        if (depth + 1 < max_depth) deep<<<2, 32>>>(marks, depth + 1, max_depth, errors);
    }
}

int main() {
    const int SLOTS = 8 * 2, M = SLOTS * 64;
    int *out, *marks, *errors;
    cudaMalloc(&out, M * sizeof(int));
    cudaMalloc(&marks, 16 * sizeof(int));
    cudaMalloc(&errors, sizeof(int));
    cudaMemset(out, 0xff, M * sizeof(int));
    cudaMemset(marks, 0xff, 16 * sizeof(int));
    cudaMemset(errors, 0, sizeof(int));
    launcher<<<8, 64>>>(out);
    deep<<<2, 32>>>(marks, 0, 6, errors);
    cudaError_t e = cudaDeviceSynchronize();
    int h[M], hm[16], he;
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hm, marks, sizeof hm, cudaMemcpyDeviceToHost);
    cudaMemcpy(&he, errors, sizeof he, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int s = 0; s < SLOTS; s++)
        for (int j = 0; j < 64; j++)
            if (h[s * 64 + j] != s * 1000 + j) bad++;
    int depth_ok = 1;
    for (int d = 0; d < 6; d++) depth_ok &= hm[d] == d;
    printf("synchronize %s\n", cudaGetErrorName(e));
    printf("slots %d, mismatches %d, out[1023] %d\n", SLOTS, bad, h[M - 1]);
    printf("depth marks %d %d %d %d %d %d %d (ok %d), parent-check errors %d\n", hm[0], hm[1], hm[2], hm[3], hm[4], hm[5], hm[6], depth_ok, he);
    return bad == 0 && depth_ok && he == 0 ? 0 : 1;
}
