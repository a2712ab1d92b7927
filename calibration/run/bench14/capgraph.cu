// A fork-join pipeline over three streams captured into a CUDA graph (events recorded in one
// stream and waited on in the others, a host function, async copies and a memset inside the
// capture), relaunched on new inputs; then the same work as an explicitly built graph (kernel,
// memcpy, memset and host nodes with dependencies) launched twice on a stream of its own.
// Every result is checked against the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__global__ void square(const float *in, float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = in[i] * in[i];
}
// Odd/even halves handled by two different streams.
__global__ void scaleOdd(float *a, float s, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (i < n) a[i] = a[i] * s + 1.0f;
}
__global__ void shiftEven(float *a, float t, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) a[i] = a[i] - t;
}
// Block sums with a shared tree, one partial per block.
__global__ void blockSum(const float *a, float *part, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}
__global__ void addCount(int *counter, int by) {
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(counter, by);
}

static int hostCalls = 0;
static void CUDART_CB onHost(void *p) { hostCalls += *(int *)p; }

static double expectSum(const std::vector<float> &in, float s, float t, std::vector<float> *parts, int B) {
  int n = (int)in.size();
  std::vector<float> a(n);
  for (int i = 0; i < n; i++) { a[i] = in[i] * in[i]; a[i] = (i & 1) ? a[i] * s + 1.0f : a[i] - t; }
  double tot = 0;
  parts->assign((n + B - 1) / B, 0.0f);
  for (int b = 0; b < (n + B - 1) / B; b++) {
    double acc = 0;
    for (int i = b * B; i < n && i < (b + 1) * B; i++) acc += a[i];
    (*parts)[b] = (float)acc; tot += acc;
  }
  return tot;
}

static bool close(const float *got, const std::vector<float> &want, int m, const char *what) {
  for (int i = 0; i < m; i++)
    if (fabsf(got[i] - want[i]) > 1e-3f * (1.0f + fabsf(want[i]))) {
      printf("%s: part %d got %f want %f\n", what, i, got[i], want[i]); return false;
    }
  return true;
}

int main() {
  const int N = 1 << 18, B = 256, G = N / B;
  const float S = 0.5f, T = 0.25f;
  float *dIn, *dA, *dPart; int *dCount;
  CK(cudaMalloc(&dIn, N * sizeof(float)));
  CK(cudaMalloc(&dA, N * sizeof(float)));
  CK(cudaMalloc(&dPart, G * sizeof(float)));
  CK(cudaMalloc(&dCount, sizeof(int)));
  CK(cudaMemset(dCount, 0, sizeof(int)));
  float *hIn, *hPart;
  CK(cudaMallocHost(&hIn, N * sizeof(float)));
  CK(cudaMallocHost(&hPart, G * sizeof(float)));
  cudaStream_t s0, s1, s2;
  CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, j1, j2;
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&j1, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&j2, cudaEventDisableTiming));
  int one = 1;

  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CK(cudaMemcpyAsync(dIn, hIn, N * sizeof(float), cudaMemcpyHostToDevice, s0));
  CK(cudaMemsetAsync(dPart, 0, G * sizeof(float), s0));
  square<<<G, B, 0, s0>>>(dIn, dA, N);
  CK(cudaEventRecord(fork, s0));
  CK(cudaStreamWaitEvent(s1, fork, 0));
  CK(cudaStreamWaitEvent(s2, fork, 0));
  scaleOdd<<<G / 2, B, 0, s1>>>(dA, S, N);
  shiftEven<<<G / 2, B, 0, s2>>>(dA, T, N);
  addCount<<<1, 32, 0, s2>>>(dCount, 10);
  CK(cudaEventRecord(j1, s1));
  CK(cudaEventRecord(j2, s2));
  CK(cudaStreamWaitEvent(s0, j1, 0));
  CK(cudaStreamWaitEvent(s0, j2, 0));
  blockSum<<<G, B, 0, s0>>>(dA, dPart, N);
  CK(cudaLaunchHostFunc(s0, onHost, &one));
  CK(cudaMemcpyAsync(hPart, dPart, G * sizeof(float), cudaMemcpyDeviceToHost, s0));
  CK(cudaStreamEndCapture(s0, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));

  bool ok = true;
  std::vector<float> in(N), want;
  double check = 0;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < N; i++) { in[i] = (float)((i * 37 + round * 101) % 1000) / 250.0f - 2.0f; hIn[i] = in[i]; }
    CK(cudaGraphLaunch(ge, s0));
    CK(cudaStreamSynchronize(s0));
    double tot = expectSum(in, S, T, &want, B);
    ok = close(hPart, want, G, "captured") && ok;
    double got = 0;
    for (int b = 0; b < G; b++) got += hPart[b];
    check += got;
    if (fabs(got - tot) > 1e-3 * fabs(tot)) { printf("round %d sum %f want %f\n", round, got, tot); ok = false; }
  }
  int count = 0;
  CK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
  if (count != 40 || hostCalls != 4) { printf("count %d hostCalls %d\n", count, hostCalls); ok = false; }

  // The same pipeline built node by node, no input copy: input stays from the last round.
  cudaGraph_t h;
  CK(cudaGraphCreate(&h, 0));
  cudaGraphNode_t nSet, nSq, nOdd, nEven, nSum, nCopy, nHost;
  cudaMemsetParams mp = {};
  mp.dst = dPart; mp.value = 0; mp.elementSize = 4; mp.width = G; mp.height = 1; mp.pitch = 0;
  CK(cudaGraphAddMemsetNode(&nSet, h, nullptr, 0, &mp));
  int n = N; float s = 2.0f, t = 1.0f;
  void *aSq[] = {&dIn, &dA, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)square; kp.gridDim = dim3(G); kp.blockDim = dim3(B); kp.kernelParams = aSq;
  CK(cudaGraphAddKernelNode(&nSq, h, nullptr, 0, &kp));
  void *aOdd[] = {&dA, &s, &n};
  kp.func = (void *)scaleOdd; kp.gridDim = dim3(G / 2); kp.kernelParams = aOdd;
  CK(cudaGraphAddKernelNode(&nOdd, h, &nSq, 1, &kp));
  void *aEven[] = {&dA, &t, &n};
  kp.func = (void *)shiftEven; kp.kernelParams = aEven;
  CK(cudaGraphAddKernelNode(&nEven, h, &nSq, 1, &kp));
  cudaGraphNode_t deps[3] = {nOdd, nEven, nSet};
  void *aSum[] = {&dA, &dPart, &n};
  kp.func = (void *)blockSum; kp.gridDim = dim3(G); kp.kernelParams = aSum;
  CK(cudaGraphAddKernelNode(&nSum, h, deps, 3, &kp));
  CK(cudaGraphAddMemcpyNode1D(&nCopy, h, &nSum, 1, hPart, dPart, G * sizeof(float), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {};
  hp.fn = onHost; hp.userData = &one;
  CK(cudaGraphAddHostNode(&nHost, h, &nCopy, 1, &hp));
  cudaGraphExec_t he;
  CK(cudaGraphInstantiate(&he, h, 0));
  cudaStream_t s3;
  CK(cudaStreamCreate(&s3));
  for (int r = 0; r < 2; r++) {
    for (int b = 0; b < G; b++) hPart[b] = -1.0f;
    CK(cudaGraphLaunch(he, s3));
    CK(cudaStreamSynchronize(s3));
    expectSum(in, s, t, &want, B);
    ok = close(hPart, want, G, "explicit") && ok;
    for (int b = 0; b < G; b++) check += hPart[b];
  }
  if (hostCalls != 6) { printf("hostCalls %d\n", hostCalls); ok = false; }
  printf("capture nodes %zu, host calls %d, counter %d, checksum %.3f\n", nodes, hostCalls, count, check);
  CK(cudaGraphExecDestroy(ge)); CK(cudaGraphExecDestroy(he));
  CK(cudaGraphDestroy(g)); CK(cudaGraphDestroy(h));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
