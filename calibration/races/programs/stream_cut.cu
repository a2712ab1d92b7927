// A footprint cut at its cap is said. `spread` (256 threads, 4,100 stores each, line 13) writes
// every other int of a 8.4 MB buffer, 1,049,600 disjoint 4-byte intervals: more than the 2^20 a
// launch's footprint keeps, so its last 1,024 stores are not in it. `warpscope run --check` gives
// the launch a `stream_footprint_cut` note. `peek` on a second non-blocking stream then reads
// the first int (line 14), which `spread` wrote before the cut: one `stream_race`, whose message
// says that `spread`'s footprint was cut.
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define ITERS 4100
__global__ void spread(int *buf) { for (int i = 0; i < ITERS; i++) buf[2 * (i * 256 + threadIdx.x)] = i; }
__global__ void peek(const int *buf, int *out) { *out = buf[0]; }

int main() {
    int *buf, *out;
    size_t n = 2 * 256 * ITERS;
    CHECK(cudaMalloc(&buf, n * sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    spread<<<1, 256, 0, a>>>(buf);
    peek<<<1, 1, 0, b>>>(buf, out);
    CHECK(cudaDeviceSynchronize());
    int h;
    CHECK(cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost));
    printf("out = %d\n", h);
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
    return 0;
}
