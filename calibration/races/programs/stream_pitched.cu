// Pitched copies and sets touch their rows, not the span from the first row to the last. `buf`
// is 8 rows of 128 bytes (a pitch of 128), of which the copies use the first 64 of each row; on
// another non-blocking stream `pad` writes the other 64 bytes of each row (line 18). Nothing
// orders the two, but they share no byte: `warpscope run --check` reports nothing. With -D INSIDE
// `pad` writes inside the rows instead: one `stream_race` (the 2-D copy on stream b writes byte
// 0 of `buf`, which `pad` writes, line 18).
//   default: cudaMemcpy2DAsync from `src` (8 rows of 64 bytes) into `buf`, on stream b
//   -D MEMSET: cudaMemset2DAsync of the same rows instead
//   -D THREED: cudaMemcpy3DAsync of the same rows (a 64 x 4 x 2 box of a 128-byte pitch) instead
//   -D SYMBOL: `pad` writes the __device__ array `sym` (line 19) and cudaMemcpyFromSymbolAsync
//   copies it to the host on stream b: one `stream_race`
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ int sym[64];
__global__ void pad(char *buf, int from) { buf[blockIdx.x * 128 + from + threadIdx.x] = 1; }
__global__ void pad_sym() { sym[threadIdx.x] = threadIdx.x; }

int main() {
    char *buf, *src;
    CHECK(cudaMalloc(&buf, 8 * 128));
    CHECK(cudaMalloc(&src, 8 * 64));
    CHECK(cudaMemset(src, 7, 8 * 64));
    CHECK(cudaMemset(buf, 0, 8 * 128));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
#ifdef INSIDE
    int from = 0;
#else
    int from = 64;
#endif
#ifdef SYMBOL
    pad_sym<<<1, 64, 0, a>>>();
    static int host[64];
    CHECK(cudaMemcpyFromSymbolAsync(host, sym, sizeof(host), 0, cudaMemcpyDeviceToHost, b));
#else
    pad<<<8, 64, 0, a>>>(buf, from);
#if defined(MEMSET)
    CHECK(cudaMemset2DAsync(buf, 128, 9, 64, 8, b));
#elif defined(THREED)
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(src, 64, 64, 4);
    p.dstPtr = make_cudaPitchedPtr(buf, 128, 64, 4);
    p.extent = make_cudaExtent(64, 4, 2);
    p.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3DAsync(&p, b));
#else
    CHECK(cudaMemcpy2DAsync(buf, 128, src, 64, 64, 8, cudaMemcpyDeviceToDevice, b));
#endif
#endif
    CHECK(cudaDeviceSynchronize());
    char h[8 * 128];
    CHECK(cudaMemcpy(h, buf, sizeof(h), cudaMemcpyDeviceToHost));
    printf("buf[0] = %d, buf[64] = %d\n", h[0], h[64]);
    CHECK(cudaFree(buf));
    CHECK(cudaFree(src));
    return 0;
}
