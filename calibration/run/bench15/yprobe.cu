// Probe: does a loop ptxas gives a YIELD (a walk through volatile loads) reconverge at its BSYNC
// on the H200? Each thread walks a fixed chain (lengths from the data, set by the host, no
// atomics) and stores its step count after the loop; the same walk through plain loads for
// contrast. Prints the sums (the counters come from ncu).
#include <cstdio>
#define N 65536
__global__ void walkVolatile(volatile const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  for (int u = next[v]; u >= 0; u = next[u]) c++;
  out[v] = c;
}
__global__ void walkPlain(const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  for (int u = next[v]; u >= 0; u = next[u]) c++;
  out[v] = c;
}
int main() {
  static int next[N], out[N];
  unsigned s = 5;
  // node v points to v - 1 - (hash % 3) or ends (-1) with a hash-chosen chance
  for (int v = 0; v < N; v++) {
    s = s * 1103515245u + 12345u;
    int r = (s >> 16) % 9;
    next[v] = (r == 0 || v < 3) ? -1 : v - 1 - (int)(r % 3);
  }
  int *dn, *dout;
  cudaMalloc(&dn, sizeof next); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dn, next, sizeof next, cudaMemcpyHostToDevice);
  long long sum[2];
  for (int k = 0; k < 2; k++) {
    if (k == 0) walkVolatile<<<N / 128, 128>>>(dn, dout); else walkPlain<<<N / 128, 128>>>(dn, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    sum[k] = 0; for (int v = 0; v < N; v++) sum[k] += out[v];
  }
  printf("steps %lld %lld\n", sum[0], sum[1]);
  return 0;
}
