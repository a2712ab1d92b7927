// The L2 persistence API a program calls before its launches: the device's limits (properties and
// attributes), cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize), an access policy window on a
// stream, cudaCtxResetPersistingL2Cache; then a launch in that stream. Attributes a stream does not
// have are refused.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(int *d, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= k;
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int persisting = 0, window = 0;
  cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, 0);
  cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, 0);
  printf("l2 %d persisting %d/%d window %d/%d\n", p.l2CacheSize, p.persistingL2CacheMaxSize, persisting,
         p.accessPolicyMaxWindowSize, window);
  const int n = 1000;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s);
  printf("limit: %d\n", (int)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p.persistingL2CacheMaxSize));
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow.base_ptr = d;
  v.accessPolicyWindow.num_bytes = sizeof h;
  v.accessPolicyWindow.hitRatio = 1.f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  printf("window: %d\n", (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  printf("bad attribute: %d\n", (int)cudaStreamSetAttribute(s, (cudaStreamAttrID)12345, &v));
  printf("reset: %d\n", (int)cudaCtxResetPersistingL2Cache());
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, n, 3);
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 3 * i;
  printf("%s\n", bad == 0 && p.persistingL2CacheMaxSize > 0 && persisting == p.persistingL2CacheMaxSize ? "Test PASSED" : "Test FAILED");
  return bad != 0;
}
