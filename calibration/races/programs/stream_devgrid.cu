// A grid launched from the device (dynamic parallelism) in the streams' order. `parent` (on a
// non-blocking stream `s`) launches `child` from one thread; `child` writes `buf` (line 30), which
// `parent` does not touch. `sum` reads `buf` (line 34) on a second non-blocking stream `t`. The
// CUDA Programming Guide (CUDA Dynamic Parallelism, "Parent and Child Grids"): a parent grid is
// not complete until every child grid its threads launched has completed; so whatever orders work
// after the parent's launch (an event recorded after it, the same stream's next launch) orders it
// after the child too, and nothing else does. A child starts after its parent launched it, so
// it is ordered after what the parent's launch is ordered after.
//   no -D: `sum` on `t` after the parent's launch, nothing ordering them: `warpscope run --check`
//          reports one `stream_race` of `sum` against `child`;
//   -D EVENT: an event recorded on `s` after the parent's launch, which `t` waits for: none;
//   -D SAME: `sum` on `s` itself: none;
//   -D FIRST: `sum` on `t` before the parent's launch, nothing ordering them: one finding, of
//          `child` against `sum` (the child is the later work);
//   -D TAIL: the child is a tail launch (cudaStreamTailLaunch): it runs after the parent grid's
//          other work, and is a child grid its thread launched as well, so the same holds (one
//          finding; none with -D EVENT).
// The program prints the sum: 448 (64 x 7) where `sum` is ordered after the child.
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
#ifdef TAIL
#define CHILD_STREAM cudaStreamTailLaunch
#else
#define CHILD_STREAM 0
#endif

__global__ void child(int *buf) {
    buf[threadIdx.x] = 7;
}
__global__ void sum(const int *buf, int *out) {
    if (threadIdx.x == 0) {
        int s = 0; for (int i = 0; i < 64; i++) s += buf[i];
        *out = s;
    }
}
__global__ void parent(int *buf) {
    if (threadIdx.x == 0) child<<<1, 64, 0, CHILD_STREAM>>>(buf);
}

int main() {
    int *buf, *out;
    CHECK(cudaMalloc(&buf, 256));
    CHECK(cudaMalloc(&out, 4));
    CHECK(cudaMemset(buf, 0, 256));
    CHECK(cudaMemset(out, 0, 4));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s, t;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
#ifdef FIRST
    sum<<<1, 32, 0, t>>>(buf, out);
    CHECK(cudaGetLastError());
#endif
    parent<<<1, 32, 0, s>>>(buf);
    CHECK(cudaGetLastError());
#ifndef FIRST
#if defined(SAME)
    sum<<<1, 32, 0, s>>>(buf, out);
#else
#ifdef EVENT
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaStreamWaitEvent(t, done, 0));
#endif
    sum<<<1, 32, 0, t>>>(buf, out);
#endif
    CHECK(cudaGetLastError());
#endif
    CHECK(cudaDeviceSynchronize());
    int h;
    CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("%d\n", h);
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
    return 0;
}
