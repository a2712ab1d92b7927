// A copy to a `__constant__` variable is work of its stream, and kernels read the variable's
// bytes. `scale` on stream a reads the constant `coef` (line 17) while cudaMemcpyToSymbolAsync
// on stream b rewrites it (line 40): one `stream_race` naming the variable. -D ORDERED records an
// event after the launch and makes stream b wait for it before the copy (none). -D OTHER copies
// into the other constant, `bias`, which the kernel does not read (none): the footprint holds the
// bytes read, not the whole bank.
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__constant__ float coef[4];
__constant__ float bias[4];

__global__ void scale(const float *in, float *out) {
    int i = threadIdx.x;
    out[i] = in[i] * coef[i % 4];
}

int main() {
    float *in, *out, h[4] = {1, 2, 3, 4}, g[4] = {5, 6, 7, 8};
    CHECK(cudaMalloc(&in, 256));
    CHECK(cudaMalloc(&out, 256));
    CHECK(cudaMemset(in, 0, 256));
    CHECK(cudaMemcpyToSymbol(coef, h, sizeof h));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    scale<<<1, 64, 0, a>>>(in, out);
#if defined(ORDERED)
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    CHECK(cudaEventRecord(e, a));
    CHECK(cudaStreamWaitEvent(b, e, 0));
#endif
#if defined(OTHER)
    CHECK(cudaMemcpyToSymbolAsync(bias, g, sizeof g, 0, cudaMemcpyHostToDevice, b));
#else
    CHECK(cudaMemcpyToSymbolAsync(coef, g, sizeof g, 0, cudaMemcpyHostToDevice, b));
#endif
    CHECK(cudaDeviceSynchronize());
    float r[4];
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    printf("out[0..3] = %g %g %g %g\n", r[0], r[1], r[2], r[3]);
    return 0;
}
