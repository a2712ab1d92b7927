// Asynchronous copies are stream work too. On two non-blocking streams: cudaMemcpyAsync writes
// buf on stream a while `twice` reads it on stream b, then `fill` writes buf on stream a while a
// cudaMemcpyAsync on stream b copies it to the host. `warpscope run --check` reports two
// `stream_race`s (the first a finding of launch `twice`, line 9; the second of the program, a
// copy has no line); with -D EVENT each second is made to wait for an event recorded after the
// first, and there is none.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void twice(const int *buf, int *out) { out[threadIdx.x] = 2 * buf[threadIdx.x]; }
__global__ void fill(int *buf) { buf[threadIdx.x] = 7; }
int main() {
    int *buf, *out;
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    cudaMalloc(&buf, 256);
    cudaMalloc(&out, 256);
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    cudaEvent_t e1, e2;
    cudaEventCreate(&e1);
    cudaEventCreate(&e2);
    cudaMemcpyAsync(buf, h, 256, cudaMemcpyHostToDevice, a);
#ifdef EVENT
    cudaEventRecord(e1, a);
    cudaStreamWaitEvent(b, e1, 0);
#endif
    twice<<<1, 64, 0, b>>>(buf, out);
    cudaDeviceSynchronize();
    fill<<<1, 64, 0, a>>>(buf);
#ifdef EVENT
    cudaEventRecord(e2, a);
    cudaStreamWaitEvent(b, e2, 0);
#endif
    cudaMemcpyAsync(h, buf, 256, cudaMemcpyDeviceToHost, b);
    cudaDeviceSynchronize();
    printf("h[0] = %d\n", h[0]);
    cudaFree(buf);
    cudaFree(out);
    return 0;
}
