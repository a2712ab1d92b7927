// Host driver for the planted-bug suite on a GPU (used by run-sanitizer.sh, not by the tests).
// Usage: harness KERNEL GX,GY,GZ BX,BY,BZ DYN_SMEM N
// Every kernel has the signature (float* out, const float* in, int n); both buffers hold N floats.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include "kernels/all.cuh"

typedef void (*KernelFn)(float*, const float*, int);

static bool parse3(const char* s, unsigned v[3]) {
    return sscanf(s, "%u,%u,%u", &v[0], &v[1], &v[2]) == 3;
}

int main(int argc, char** argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s KERNEL GX,GY,GZ BX,BY,BZ DYN_SMEM N\n", argv[0]);
        return 2;
    }
    KernelFn fn = nullptr;
    for (const auto& k : kKernels) {
        if (strcmp(k.name, argv[1]) == 0) fn = k.fn;
    }
    unsigned g[3], b[3];
    if (!fn || !parse3(argv[2], g) || !parse3(argv[3], b)) {
        fprintf(stderr, "bad kernel name or shape\n");
        return 2;
    }
    unsigned dyn = (unsigned)atoi(argv[4]);
    int n = atoi(argv[5]);
    float *in = nullptr, *out = nullptr;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    float* host = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) host[i] = (float)(i % 17);
    cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, n * sizeof(float));
    fn<<<dim3(g[0], g[1], g[2]), dim3(b[0], b[1], b[2]), dyn>>>(out, in, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("%s launch=%s sync=%s\n", argv[1], cudaGetErrorString(launch), cudaGetErrorString(sync));
    free(host);
    cudaFree(in);
    cudaFree(out);
    return (launch == cudaSuccess && sync == cudaSuccess) ? 0 : 1;
}
