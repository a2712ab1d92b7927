// Two non-blocking streams write one buffer: `fill` on stream a, then `fill` on stream b. The
// host's cudaStreamSynchronize(a) between orders the two launches; with -D NOSYNC nothing does
// and `warpscope run --check` reports one `stream_race` (a write against a write, line 8).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(int *buf, int v)
{
    buf[threadIdx.x] = v;
}
int main() {
    int *buf;
    cudaMalloc(&buf, 256);
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    fill<<<1, 64, 0, a>>>(buf, 1);
#ifndef NOSYNC
    cudaStreamSynchronize(a);
#endif
    fill<<<1, 64, 0, b>>>(buf, 2);
    cudaDeviceSynchronize();
    int h[64];
    cudaMemcpy(h, buf, 256, cudaMemcpyDeviceToHost);
    printf("buf[0] = %d\n", h[0]);
    cudaFree(buf);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    return 0;
}
