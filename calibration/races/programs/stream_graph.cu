// Graph nodes are ordered by the graph's edges, not by the order a graph runs them in. A graph of
// two kernel nodes, `fill` (line 21) and `scale` (line 22), both writing `buf`, launched into a
// non-blocking stream: without an edge between them (built node by node, or captured from two
// streams that fork from one event and join at the end) nothing orders them, and `warpscope run
// --check` reports one `stream_race` naming the graph and both nodes. With -D EDGE, `scale`
// depends on `fill` (a dependency given when it is added, cudaGraphAddDependencies with -D
// ADDDEP, or in the capture an event recorded after `fill` that `scale`'s stream waits for): none.
// After the graph, `fill` again on the graph's stream is ordered after every node (none); with
// -D OTHER it runs on a second non-blocking stream instead, ordered after neither node (a
// finding against each, not between a graph's nodes).
//   -D CAPTURE: the graph is captured (cudaStreamBeginCapture ... cudaStreamEndCapture)
//   -D EVENTNODE (built graphs): a second graph (`fill`, then an event record node) is launched
//   into the second stream first; the graph is an event wait node for that event, then `scale`:
//   ordered (none). -D EVENTNODE -D NOWAIT: without the wait node, the other graph's `fill` races
//   with `scale` and with the `fill` after the graph (two findings, neither within one graph).
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill(int *buf, int v) { buf[threadIdx.x] = v; }
__global__ void scale(int *buf) { buf[threadIdx.x] *= 2; }

int main() {
    int *buf;
    CHECK(cudaMalloc(&buf, 256));
    CHECK(cudaMemset(buf, 0, 256));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s, t;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    cudaGraph_t g;
    int v = 3;
#ifdef CAPTURE
    cudaEvent_t fork, mid, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&mid));
    CHECK(cudaEventCreate(&join));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s));
    CHECK(cudaStreamWaitEvent(t, fork, 0));
    fill<<<1, 64, 0, s>>>(buf, v);
#ifdef EDGE
    CHECK(cudaEventRecord(mid, s));
    CHECK(cudaStreamWaitEvent(t, mid, 0));
#endif
    scale<<<1, 64, 0, t>>>(buf);
    CHECK(cudaEventRecord(join, t));
    CHECK(cudaStreamWaitEvent(s, join, 0));
    CHECK(cudaStreamEndCapture(s, &g));
#else
    CHECK(cudaGraphCreate(&g, 0));
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
    cudaGraphNode_t a, b;
#if defined(EVENTNODE)
    // a second graph, launched first into stream t, records `ev` after its `fill`; this graph is
    // only `scale`, after an event wait node for `ev` (with -D NOWAIT without it: a race between
    // the two graphs' nodes)
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev));
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t rec, w;
    CHECK(cudaGraphAddKernelNode(&a, g2, NULL, 0, &pf));
    CHECK(cudaGraphAddEventRecordNode(&rec, g2, &a, 1, ev));
    cudaGraphExec_t e2;
    CHECK(cudaGraphInstantiate(&e2, g2, 0));
    CHECK(cudaGraphLaunch(e2, t));
#ifdef NOWAIT
    CHECK(cudaGraphAddKernelNode(&b, g, NULL, 0, &ps));
#else
    CHECK(cudaGraphAddEventWaitNode(&w, g, NULL, 0, ev));
    CHECK(cudaGraphAddKernelNode(&b, g, &w, 1, &ps));
#endif
#elif defined(EDGE) && !defined(ADDDEP)
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &pf));
    CHECK(cudaGraphAddKernelNode(&b, g, &a, 1, &ps));
#else
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &pf));
    CHECK(cudaGraphAddKernelNode(&b, g, NULL, 0, &ps));
#if defined(EDGE) && defined(ADDDEP)
    CHECK(cudaGraphAddDependencies(g, &a, &b, NULL, 1));
#endif
#endif
#endif
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
#ifdef OTHER
    fill<<<1, 64, 0, t>>>(buf, 5);
#else
    fill<<<1, 64, 0, s>>>(buf, 5);
#endif
    CHECK(cudaDeviceSynchronize());
    int h[64];
    CHECK(cudaMemcpy(h, buf, 256, cudaMemcpyDeviceToHost));
    printf("buf[0] = %d\n", h[0]);
    CHECK(cudaFree(buf));
    return 0;
}
