// A host function is work of its stream. `put` on blocking stream a writes `buf`, then a host
// function is enqueued on the legacy default stream (which waits for every blocking stream's
// work, and every blocking stream's later work waits for it), then `get` on blocking stream b
// writes `buf`: the host function orders the two launches, and `warpscope run --check` reports
// nothing. -D NOHOST leaves the host function out: one `stream_race` (`get`, line 18, writes what
// `put`, line 17, writes). -D CALLBACK enqueues it with cudaStreamAddCallback instead of
// cudaLaunchHostFunc (none). The host function only counts here; what a host function reads or
// writes of device memory (mapped or managed) is not checked.
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static int calls = 0;
void CUDART_CB note(void *) { calls++; }
void CUDART_CB note_cb(cudaStream_t, cudaError_t, void *) { calls++; }
__global__ void put(int *buf) { buf[threadIdx.x] = threadIdx.x; }
__global__ void get(int *buf) { buf[threadIdx.x] += 1; }

int main() {
    int *buf;
    CHECK(cudaMalloc(&buf, 256));
    CHECK(cudaMemset(buf, 0, 256));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t a, b;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    put<<<1, 64, 0, a>>>(buf);
#if defined(CALLBACK)
    CHECK(cudaStreamAddCallback(0, note_cb, NULL, 0));
#elif !defined(NOHOST)
    CHECK(cudaLaunchHostFunc(0, note, NULL));
#endif
    get<<<1, 64, 0, b>>>(buf);
    CHECK(cudaDeviceSynchronize());
    int h[64];
    CHECK(cudaMemcpy(h, buf, 256, cudaMemcpyDeviceToHost));
    printf("buf[5] = %d, host functions run: %d\n", h[5], calls);
    CHECK(cudaFree(buf));
    return 0;
}
