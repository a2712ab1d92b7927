// What two launches on two non-blocking streams that nothing orders may share: `half` writes
// the two halves of one buffer (disjoint bytes), `total` reads the whole buffer on both streams
// (read and read), `count` adds to one counter with atomicAdd on both (atomic and atomic): no
// finding. -D OVERLAP moves the second half 32 ints down (its writes overlap the first's,
// line 9); -D PLAIN has the second stream read the counter with a plain load (line 12) while
// the first adds to it: each reports one `stream_race`.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void half(int *buf, int first) { buf[first + threadIdx.x] = threadIdx.x; }
__global__ void total(const int *buf, int *out) { atomicAdd(out, buf[threadIdx.x]); }
__global__ void count(int *counter) { atomicAdd(counter, 1); }
__global__ void peek(const int *counter, int *out) { out[threadIdx.x] = *counter; }
int main() {
    int *buf, *out, *counter;
    cudaMalloc(&buf, 512);
    cudaMalloc(&out, 512);
    cudaMalloc(&counter, 4);
    cudaMemset(out, 0, 512);
    cudaMemset(counter, 0, 4);
    cudaDeviceSynchronize();
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    half<<<1, 64, 0, a>>>(buf, 0);
#ifdef OVERLAP
    half<<<1, 64, 0, b>>>(buf, 32);
#else
    half<<<1, 64, 0, b>>>(buf, 64);
#endif
    cudaDeviceSynchronize();
    total<<<1, 128, 0, a>>>(buf, out);
    total<<<1, 128, 0, b>>>(buf, out + 1);
    cudaDeviceSynchronize();
    count<<<1, 64, 0, a>>>(counter);
#ifdef PLAIN
    peek<<<1, 32, 0, b>>>(counter, out + 64);
#else
    count<<<1, 64, 0, b>>>(counter);
#endif
    cudaDeviceSynchronize();
    int h[2];
    cudaMemcpy(h, out, 8, cudaMemcpyDeviceToHost);
    printf("totals %d %d\n", h[0], h[1]);
    cudaFree(buf);
    cudaFree(out);
    cudaFree(counter);
    return 0;
}
