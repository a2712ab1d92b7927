// Planted bugs inside the grids of a CUDA graph's kernel nodes, for `warpscope run --check`. The
// graph runs three kernels in a chain of edges, on a non-blocking stream: `fill` writes `in`
// (64 ints), `tile_sum` adds neighbours through shared memory into `out`, `shift` copies the
// first half of `out` (128 ints) into its second half. Every grid a node launches is checked as a
// plain launch is, and the edges order the nodes: the race-free build has no finding, and prints
// 1856 (the sum of `out`). The graph is built node by node (no -D), captured from the stream
// (-D CAPTURE), or one kernel node `parent` launches the three as grids of its own (dynamic
// parallelism, -D CHILD, built with -rdc=true; a block's NULL-stream launches run in order).
// The bugs, one at a time (graph_bugs_h200/ has each variant on an H200, plainly and under
// compute-sanitizer):
//   -D SHARED: `tile_sum` without its barrier: a shared-memory race, the store at line 30 and the
//          neighbour's load at line 34;
//   -D GLOBAL: `shift` writes the next thread's element in place: a global race between threads
//          of one grid, the load and the store of line 38;
//   -D OOB: thread 63 of `fill` writes `in[64]`, one int past its 256-byte allocation (line 25).
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill(int *in) {
    in[threadIdx.x] = 7;
#ifdef OOB
    if (threadIdx.x == 63)
        in[64] = 8;
#endif
}
__global__ void tile_sum(const int *in, int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = in[threadIdx.x];
#ifndef SHARED
    __syncthreads();
#endif
    out[threadIdx.x] = s[threadIdx.x] + s[(threadIdx.x + 1) % 64];
}
__global__ void shift(int *out) {
#ifdef GLOBAL
    out[threadIdx.x + 1] = out[threadIdx.x] + 1;
#else
    out[64 + threadIdx.x] = out[threadIdx.x] + 1;
#endif
}
#if defined(CHILD)
__global__ void parent(int *in, int *out) {
    if (threadIdx.x == 0) {
        fill<<<1, 64>>>(in);
        tile_sum<<<1, 64>>>(in, out);
        shift<<<1, 64>>>(out);
    }
}
#endif

int main() {
    int *in, *out;
    CHECK(cudaMalloc(&in, 64 * sizeof(int)));
    CHECK(cudaMalloc(&out, 128 * sizeof(int)));
    CHECK(cudaMemset(out, 0, 128 * sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t g;
#if defined(CAPTURE)
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    fill<<<1, 64, 0, s>>>(in);
    tile_sum<<<1, 64, 0, s>>>(in, out);
    shift<<<1, 64, 0, s>>>(out);
    CHECK(cudaStreamEndCapture(s, &g));
#else
    CHECK(cudaGraphCreate(&g, 0));
    cudaKernelNodeParams p = {};
    p.gridDim = dim3(1);
    p.blockDim = dim3(64);
#if defined(CHILD)
    void *pa[] = {&in, &out};
    cudaGraphNode_t n;
    p.func = (void *)parent;
    p.kernelParams = pa;
    CHECK(cudaGraphAddKernelNode(&n, g, NULL, 0, &p));
#else
    void *fa[] = {&in};
    void *ta[] = {&in, &out};
    void *sa[] = {&out};
    cudaGraphNode_t a, b, c;
    p.func = (void *)fill;
    p.kernelParams = fa;
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &p));
    p.func = (void *)tile_sum;
    p.kernelParams = ta;
    CHECK(cudaGraphAddKernelNode(&b, g, &a, 1, &p));
    p.func = (void *)shift;
    p.kernelParams = sa;
    CHECK(cudaGraphAddKernelNode(&c, g, &b, 1, &p));
#endif
#endif
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    int h[128];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < 128; i++) sum += h[i];
    printf("%ld\n", sum);
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
