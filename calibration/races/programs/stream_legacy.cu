// Two blocking streams (cudaStreamCreate): `put` writes buf on stream a, `get` reads it on
// stream b. A launch on the legacy default stream between them (`mark`, touching another buffer)
// waits for a's work, and b's later work waits for it: the two are ordered, no finding.
// -D NONBLOCKING makes a and b non-blocking (the default stream orders neither), -D NODEFAULT
// leaves the default-stream launch out, -D PERTHREAD issues it on cudaStreamPerThread (an
// ordinary blocking stream, which orders nothing between other streams): each reports one
// `stream_race` (`get`, line 12, reads what `put`, line 10, writes).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void put(int *buf) { buf[threadIdx.x] = threadIdx.x; }
__global__ void mark(int *flag) { flag[0] = 1; }
__global__ void get(const int *buf, int *out) { out[threadIdx.x] = buf[threadIdx.x] * 2; }
int main() {
    int *buf, *out, *flag;
    cudaMalloc(&buf, 256);
    cudaMalloc(&out, 256);
    cudaMalloc(&flag, 4);
    cudaStream_t a, b;
#ifdef NONBLOCKING
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
#else
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
#endif
    put<<<1, 64, 0, a>>>(buf);
#if defined(PERTHREAD)
    mark<<<1, 1, 0, cudaStreamPerThread>>>(flag);
#elif !defined(NODEFAULT)
    mark<<<1, 1>>>(flag);
#endif
    get<<<1, 64, 0, b>>>(buf, out);
    cudaDeviceSynchronize();
    int h[64];
    cudaMemcpy(h, out, 256, cudaMemcpyDeviceToHost);
    printf("out[5] = %d\n", h[5]);
    cudaFree(buf);
    cudaFree(out);
    cudaFree(flag);
    return 0;
}
