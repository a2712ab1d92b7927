// One labelled kernel as a program: two zeroed 512-byte buffers, the kernel launched REPS times
// (env, default 1), each run's buffers hashed; prints the first run's buffers and how many
// distinct results the runs gave.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <cuda_runtime.h>
#include "launch.h"
int main() {
    int reps = getenv("REPS") ? atoi(getenv("REPS")) : 1;
    int *b0 = nullptr, *b1 = nullptr;
    cudaMalloc(&b0, 512);
    cudaMalloc(&b1, 512);
    std::set<unsigned long long> seen;
    int h0[128], h1[128];
    for (int r = 0; r < reps; ++r) {
        cudaMemset(b0, 0, 512);
        cudaMemset(b1, 0, 512);
        LAUNCH;
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("%s: run %d: %s\n", KNAME, r, cudaGetErrorString(e));
            return 1;
        }
        cudaMemcpy(h0, b0, 512, cudaMemcpyDeviceToHost);
        cudaMemcpy(h1, b1, 512, cudaMemcpyDeviceToHost);
        unsigned long long h = 1469598103934665603ull;
        for (int i = 0; i < 128; ++i) h = (h ^ (unsigned)h0[i]) * 1099511628211ull;
        for (int i = 0; i < 128; ++i) h = (h ^ (unsigned)h1[i]) * 1099511628211ull;
        seen.insert(h);
        if (r == 0) {
            printf("%s: buf0:", KNAME);
            for (int i = 0; i < 128; ++i) printf(" %d", h0[i]);
            printf("\n%s: buf1:", KNAME);
            for (int i = 0; i < 128; ++i) printf(" %d", h1[i]);
            printf("\n");
        }
    }
    printf("%s: %d runs, %zu distinct results\n", KNAME, reps, seen.size());
    cudaFree(b0);
    cudaFree(b1);
    return 0;
}
