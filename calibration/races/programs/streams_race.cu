// Two kernels on two streams touching one buffer: `produce` writes it on stream a, `consume`
// reads it on stream b. With EVENT defined, b waits for an event recorded on a after `produce`
// (ordered); without, nothing orders the two launches (a cross-stream race on the GPU:
// `consume` may read `buf` before `produce` wrote it).
// `warpscope run --check streams_race.cu` reports one `stream_race` (launch 1 `consume` reads
// what launch 0 `produce` writes, lines 12 and 11); with -D EVENT none (docs/check.md, "Streams").
// The memset is on the default stream, which the non-blocking streams do not wait for, and is
// asynchronous to the host: the cudaDeviceSynchronize after it orders it before both kernels.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void produce(int *buf) { buf[threadIdx.x] = threadIdx.x * 3; }
__global__ void consume(const int *buf, int *out) { out[threadIdx.x] = buf[(threadIdx.x + 1) % 64] + 1; }
int main() {
    int *buf, *out;
    cudaMalloc(&buf, 256);
    cudaMalloc(&out, 256);
    cudaMemset(buf, 0, 256);
    cudaDeviceSynchronize();
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    produce<<<1, 64, 0, a>>>(buf);
#ifdef EVENT
    cudaEvent_t e;
    cudaEventCreate(&e);
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
#endif
    consume<<<1, 64, 0, b>>>(buf, out);
    cudaDeviceSynchronize();
    int h[64];
    cudaMemcpy(h, out, 256, cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(buf);
    cudaFree(out);
    return 0;
}
