// Managed memory allocated for the host (cudaMemAttachHost) and attached to a stream before a
// kernel in that stream writes it; then re-attached globally. The refused forms print their
// error codes: an unknown flag, and a single attachment to the legacy default stream.
#include <cstdio>

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i + 1;
}

int main() {
  const int n = 1000;
  int *p;
  cudaStream_t s;
  cudaMallocManaged(&p, n * sizeof(int), cudaMemAttachHost);
  cudaStreamCreate(&s);
  int single = cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachSingle);
  fill<<<(n + 127) / 128, 128, 0, s>>>(p, n);
  cudaStreamSynchronize(s);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += p[i] != 3 * i + 1;
  int global = cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachGlobal);
  int flag = cudaStreamAttachMemAsync(s, p, 0, 8);
  int legacy = cudaStreamAttachMemAsync(0, p, 0, cudaMemAttachSingle);
  cudaStreamSynchronize(s);
  printf("single %d global %d flag %d legacy %d wrong %d\n", single, global, flag, legacy, bad);
  printf("%s\n", bad == 0 && single == 0 && global == 0 && flag == 1 && legacy == 1 ? "PASS" : "FAIL");
  return bad != 0;
}
