// Float sums made by atomicAdd, whose last bits depend on the order the GPU ran the adds, and
// launches that read them: one decides on the sum (a predicated store), one only scales it into
// floats, one decides on those floats, and an integer sum (order-independent) decides.
#include <cstdio>
#define N 4096
__global__ void sumF(float *s, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&s[i & 3], x[i]);
}
__global__ void decideF(const float *s, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (s[i & 3] > 0.25f * (float)(i & 255)) out[i] = i;
}
__global__ void scaleF(const float *s, const float *x, float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = s[i & 3] * 0.001f + x[i];
}
__global__ void decideD(const float *d, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (d[i] > 0.5f) out[i] = -i;
}
__global__ void sumI(int *c, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&c[i & 3], (int)(x[i] * 100.0f));
}
__global__ void decideI(const int *c, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (c[i & 3] > 100 * (i & 2047)) out[i] = 2 * i;
}
int main() {
  float *x, *s, *d; int *c, *out;
  cudaMallocManaged(&x, N * 4); cudaMalloc(&s, 16); cudaMalloc(&d, N * 4);
  cudaMalloc(&c, 16); cudaMalloc(&out, N * 4);
  for (int i = 0; i < N; i++) x[i] = (float)((i * 37) % 101) / 97.0f;
  cudaMemset(s, 0, 16); cudaMemset(c, 0, 16); cudaMemset(out, 0, N * 4);
  sumF<<<N / 256, 256>>>(s, x);
  decideF<<<N / 256, 256>>>(s, out);
  scaleF<<<N / 256, 256>>>(s, x, d);
  decideD<<<N / 256, 256>>>(d, out);
  sumI<<<N / 256, 256>>>(c, x);
  decideI<<<N / 256, 256>>>(c, out);
  int h[N]; int hc[4];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  long long t = 0; for (int i = 0; i < N; i++) t += h[i];
  printf("sums %d %d %d %d total %lld\n", hc[0], hc[1], hc[2], hc[3], t);
  return 0;
}
