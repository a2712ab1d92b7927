// Dynamic parallelism at its limits: a recursion past the nesting depth limit (24), recording each
// level's launch result, and one grid whose threads launch more children than the pending launch
// count (cudaLimitDevRuntimePendingLaunchCount, 2048 by default) allows, counting the results.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dive(int depth, int *launch_err, int *reached) {
    atomicMax(reached, depth);
    if (depth < 30) {
        dive<<<1, 1>>>(depth + 1, launch_err, reached);
        launch_err[depth] = (int)cudaGetLastError();
    }
}

__global__ void leaf(int *hits) { atomicAdd(hits, 1); }

__global__ void flood(int *hits, int *codes) {
    leaf<<<1, 1>>>(hits);
    cudaError_t e = cudaGetLastError();
    atomicAdd(&codes[(int)e < 1024 ? (int)e : 1023], 1);
}

int main() {
    int *err, *reached, *hits, *codes;
    cudaMalloc(&err, 32 * sizeof(int));
    cudaMalloc(&reached, sizeof(int));
    cudaMalloc(&hits, sizeof(int));
    cudaMalloc(&codes, 1024 * sizeof(int));
    cudaMemset(err, 0xff, 32 * sizeof(int));
    cudaMemset(reached, 0, sizeof(int));
    cudaMemset(hits, 0, sizeof(int));
    cudaMemset(codes, 0, 1024 * sizeof(int));
    size_t pending = 0, depth = 0;
    cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount);
    cudaDeviceGetLimit(&depth, cudaLimitDevRuntimeSyncDepth);
    printf("limits: pending launch count %zu, sync depth %zu\n", pending, depth);
    dive<<<1, 1>>>(0, err, reached);
    cudaError_t e1 = cudaDeviceSynchronize();
    cudaError_t e1b = cudaGetLastError();
    int he[32], hr;
    cudaMemcpy(he, err, sizeof he, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hr, reached, sizeof hr, cudaMemcpyDeviceToHost);
    printf("dive: synchronize %s, last %s, deepest level reached %d\n", cudaGetErrorName(e1), cudaGetErrorName(e1b), hr);
    for (int d = 0; d < 30; d++) printf("level %d launch %d\n", d, he[d]);
    flood<<<4, 1024>>>(hits, codes);
    cudaError_t e2 = cudaDeviceSynchronize();
    int hh, hc[1024];
    cudaMemcpy(&hh, hits, sizeof hh, cudaMemcpyDeviceToHost);
    cudaMemcpy(hc, codes, sizeof hc, cudaMemcpyDeviceToHost);
    printf("flood: synchronize %s, children ran %d\n", cudaGetErrorName(e2), hh);
    for (int c = 0; c < 1024; c++) if (hc[c]) printf("flood: code %d x%d\n", c, hc[c]);
    return 0;
}
