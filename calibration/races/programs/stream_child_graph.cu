// A child graph node (cudaGraphAddChildGraphNode) in the streams' order. The child graph is one
// kernel node, `scale` (line 27), writing `buf`; the parent graph is a kernel node `fill` (line
// 24) writing `buf` and the child graph node, launched into a non-blocking stream `s`. The
// runtime clones the child graph into the parent at the call; its nodes are ordered by the
// parent's edges as the child graph node is (CUDA Runtime API, cudaGraphAddChildGraphNode: "the
// node executes an embedded child graph").
//   no -D: no edge between `fill` and the child graph node: `warpscope run --check` reports one
//          `stream_race` between two nodes of one graph launch;
//   -D EDGE: the child graph node depends on `fill`: none;
//   -D EDGE -D AFTER: after the graph launch, `fill` again on a second non-blocking stream `t`,
//          nothing ordering it after the graph: one finding against each of the graph's two
//          kernel nodes (the child's `scale` among them);
//   -D EDGE -D AFTER -D EVENT: an event recorded on `s` after the graph launch, which `t` waits
//          for before its `fill`: none (an event captures the whole graph launch, child graphs
//          included).
// The program prints the first four words of `buf`: 6 6 6 6 with -D EDGE, 5 5 5 5 with -D EDGE
// -D AFTER -D EVENT (the others depend on the order the GPU picks).
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill(int *buf, int v) {
    buf[threadIdx.x] = v;
}
__global__ void scale(int *buf) {
    buf[threadIdx.x] *= 2;
}

int main() {
    int *buf;
    CHECK(cudaMalloc(&buf, 256));
    CHECK(cudaMemset(buf, 0, 256));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s, t;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    int v = 3;
    void *fill_args[] = {&buf, &v};
    void *scale_args[] = {&buf};
    cudaKernelNodeParams pf = {};
    pf.func = (void *)fill;
    pf.gridDim = dim3(1);
    pf.blockDim = dim3(64);
    pf.kernelParams = fill_args;
    cudaKernelNodeParams ps = pf;
    ps.func = (void *)scale;
    ps.kernelParams = scale_args;
    cudaGraph_t child, g;
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t k, a, c;
    CHECK(cudaGraphAddKernelNode(&k, child, NULL, 0, &ps));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &pf));
#ifdef EDGE
    CHECK(cudaGraphAddChildGraphNode(&c, g, &a, 1, child));
#else
    CHECK(cudaGraphAddChildGraphNode(&c, g, NULL, 0, child));
#endif
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
#ifdef AFTER
#ifdef EVENT
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaStreamWaitEvent(t, done, 0));
#endif
    fill<<<1, 64, 0, t>>>(buf, 5);
    CHECK(cudaGetLastError());
#endif
    CHECK(cudaDeviceSynchronize());
    int h[4];
    CHECK(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost));
    printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
    CHECK(cudaFree(buf));
    return 0;
}
