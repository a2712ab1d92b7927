// CUDA graphs, both ways: a graph built node by node (a 3-D copy node in, a 4-byte-element memset
// node, two kernel nodes with dependencies, a 1-D copy node out, a host node), instantiated and
// launched three times; and the same work captured from three streams (fork and join through
// events, async copies and sets, a host function), launched twice on another stream. Each kernel
// node is one launch for ncu (node-level profiling) and for warpscope. Then a stream-ordered
// allocation (cudaMallocAsync / cudaFreeAsync) set by cudaMemset3DAsync.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));        \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

// one partial sum per block, added to what the block's slot already holds
__global__ void sumBlocks(const float *x, float *partial, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] += s[0];
}

static int hostCalls = 0;
static void CUDART_CB countCall(void *data) { ++*static_cast<int *>(data); }

int main() {
  const int n = 1 << 14, threads = 256, blocks = n / threads;
  float *hx, *hp, *dx, *dp;
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK(cudaMallocHost(&hp, blocks * sizeof(float)));
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dp, blocks * sizeof(float)));
  double base = 0;
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 7);
    base += hx[i];
  }
  bool ok = true;

  // ---- built node by node
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemcpy3DParms in = {0};
  in.srcPtr = make_cudaPitchedPtr(hx, n * sizeof(float), n, 1);
  in.dstPtr = make_cudaPitchedPtr(dx, n * sizeof(float), n, 1);
  in.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  in.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t copyIn, setP, scaleNode, sumNode, copyOut, hostNode;
  CHECK(cudaGraphAddMemcpyNode(&copyIn, g, nullptr, 0, &in));
  cudaMemsetParams ms = {0};
  float one = 1.0f;
  unsigned bits;
  memcpy(&bits, &one, 4);
  ms.dst = dp;
  ms.value = bits;  // every partial starts at 1.0f
  ms.elementSize = 4;
  ms.width = blocks;
  ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&setP, g, nullptr, 0, &ms));
  float a = 2.0f;
  int nn = n;
  void *scaleArgs[] = {&dx, &a, &nn};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)scale;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(threads);
  kp.kernelParams = scaleArgs;
  CHECK(cudaGraphAddKernelNode(&scaleNode, g, &copyIn, 1, &kp));
  void *sumArgs[] = {&dx, &dp, &nn};
  kp.func = (void *)sumBlocks;
  kp.kernelParams = sumArgs;
  cudaGraphNode_t deps[] = {scaleNode, setP};
  CHECK(cudaGraphAddKernelNode(&sumNode, g, deps, 2, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&copyOut, g, &sumNode, 1, hp, dp, blocks * sizeof(float),
                                 cudaMemcpyDeviceToHost));
  cudaHostNodeParams hn = {countCall, &hostCalls};
  CHECK(cudaGraphAddHostNode(&hostNode, g, &copyOut, 1, &hn));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  printf("manual graph: %zu nodes\n", count);
  ok &= count == 6;
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int it = 0; it < 3; ++it) {
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    double sum = 0;
    for (int b = 0; b < blocks; ++b) sum += hp[b];
    printf("manual launch %d: sum %.1f\n", it, sum);
    ok &= sum == 2 * base + blocks;  // copied in afresh each time: 2x, plus the 1.0f starts
  }
  printf("host node calls: %d\n", hostCalls);
  ok &= hostCalls == 3;

  // ---- captured from three streams
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreate(&s3));
  cudaEvent_t fork, joined;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&joined));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s1, &st));
  ok &= st == cudaStreamCaptureStatusActive;
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaMemsetAsync(dp, 0, blocks * sizeof(float), s2));
  CHECK(cudaEventRecord(joined, s2));
  CHECK(cudaMemcpyAsync(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice, s1));
  float third = 3.0f;
  scale<<<blocks, threads, 0, s1>>>(dx, third, n);
  CHECK(cudaStreamWaitEvent(s1, joined, 0));
  sumBlocks<<<blocks, threads, 0, s1>>>(dx, dp, n);
  CHECK(cudaMemcpyAsync(hp, dp, blocks * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, countCall, &hostCalls));
  cudaGraph_t cg;
  CHECK(cudaStreamEndCapture(s1, &cg));
  CHECK(cudaStreamIsCapturing(s1, &st));
  ok &= st == cudaStreamCaptureStatusNone;
  printf("capture ran nothing yet: host calls %d\n", hostCalls);
  ok &= hostCalls == 3;
  cudaGraphExec_t ce;
  CHECK(cudaGraphInstantiate(&ce, cg, 0));
  for (int it = 0; it < 2; ++it) {
    CHECK(cudaGraphLaunch(ce, s3));
    CHECK(cudaStreamSynchronize(s3));
    double sum = 0;
    for (int b = 0; b < blocks; ++b) sum += hp[b];
    printf("captured launch %d: sum %.1f\n", it, sum);
    ok &= sum == 3 * base;
  }
  ok &= hostCalls == 5;
  // stream-ordered allocation and a 3-D set: 4 slices of 4 rows, 64 of each row's 256 bytes
  unsigned char *tmp;
  CHECK(cudaMallocAsync(&tmp, 4096, s));
  CHECK(cudaMemsetAsync(tmp, 0, 4096, s));
  cudaPitchedPtr pp = make_cudaPitchedPtr(tmp, 256, 64, 4);
  CHECK(cudaMemset3DAsync(pp, 0x3f, make_cudaExtent(64, 4, 4), s));
  static unsigned char back[4096];
  CHECK(cudaMemcpyAsync(back, tmp, 4096, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaStreamSynchronize(s));
  int set = 0, where = 0;
  for (int i = 0; i < 4096; ++i) {
    set += back[i] == 0x3f;
    where += back[i] == 0x3f && i % 256 < 64;
  }
  printf("memset3D: %d bytes set, %d in place\n", set, where);
  ok &= set == 64 * 16 && where == set;
  CHECK(cudaGraphExecDestroy(ce));
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(cg));
  CHECK(cudaGraphDestroy(g));
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
