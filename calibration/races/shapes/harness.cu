// One labelled kernel of ../kernels as a program, launched as its `// launch:` line says (gen.h,
// written by build.sh: grid, block, dynamic shared bytes, cooperative or not, and the arguments:
// buffers of pseudo-random or zeroed bytes, 32-bit integers). The kernel is launched REPS times
// (env, default 1) on fresh copies of the same buffers; each run's buffers are hashed. Prints the
// first run's buffers (as 32-bit words, at most 128 each) and how many distinct results the runs gave.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>
#include <cuda_runtime.h>
struct Arg { int kind; size_t bytes; int zero; int value; };  // kind 0: buffer, 1: 32-bit integer
#include "gen.h"
int main() {
    int reps = getenv("REPS") ? atoi(getenv("REPS")) : 1;
    const int n = sizeof(ARGS) / sizeof(ARGS[0]);
    std::vector<void *> dev(n, nullptr);
    std::vector<std::vector<unsigned char>> init(n);
    std::vector<int> ints(n);
    std::vector<void *> params(n);
    unsigned x = 12345u;
    for (int i = 0; i < n; ++i) {
        if (ARGS[i].kind == 0) {
            init[i].resize(ARGS[i].bytes);
            for (auto &b : init[i]) { x = x * 1664525u + 1013904223u; b = ARGS[i].zero ? 0 : (unsigned char)(x >> 24); }
            cudaMalloc(&dev[i], ARGS[i].bytes);
            params[i] = &dev[i];
        } else {
            ints[i] = ARGS[i].value;
            params[i] = &ints[i];
        }
    }
    std::set<unsigned long long> seen;
    for (int r = 0; r < reps; ++r) {
        for (int i = 0; i < n; ++i)
            if (ARGS[i].kind == 0) cudaMemcpy(dev[i], init[i].data(), ARGS[i].bytes, cudaMemcpyHostToDevice);
        cudaError_t e = COOP ? cudaLaunchCooperativeKernel((const void *)KERNEL, GRID, BLOCK, params.data(), DYN, 0)
                             : cudaLaunchKernel((const void *)KERNEL, GRID, BLOCK, params.data(), DYN, 0);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("%s: run %d: %s\n", KNAME, r, cudaGetErrorString(e));
            return 1;
        }
        unsigned long long h = 1469598103934665603ull;
        for (int i = 0; i < n; ++i) {
            if (ARGS[i].kind != 0) continue;
            std::vector<unsigned char> out(ARGS[i].bytes);
            cudaMemcpy(out.data(), dev[i], ARGS[i].bytes, cudaMemcpyDeviceToHost);
            for (unsigned char b : out) h = (h ^ b) * 1099511628211ull;
            if (r == 0) {
                printf("%s: buf%d:", KNAME, i);
                for (size_t w = 0; w + 4 <= out.size() && w < 512; w += 4) {
                    int v;
                    memcpy(&v, &out[w], 4);
                    printf(" %d", v);
                }
                printf("\n");
            }
        }
        seen.insert(h);
    }
    printf("%s: %d runs, %zu distinct results\n", KNAME, reps, seen.size());
    return 0;
}
