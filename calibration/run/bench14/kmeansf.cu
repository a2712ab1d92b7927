// k-means on 3-D points with float atomics: each block accumulates its points' coordinates and
// counts per cluster in shared memory (atomicAdd on shared floats), then adds them to global sums
// with one atomicAdd per cluster and coordinate; a one-block kernel turns sums into centres and
// counts label changes. 10 iterations on 2^17 points, 16 clusters. Float atomics add in any
// order, so the host checks with a tolerance and prints centres to 2 decimals.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define K 16

__global__ void assign(const float3 *p, int n, const float3 *c, int *label, float *sums, int *counts, int *changed) {
  __shared__ float3 cs[K];
  __shared__ float acc[K * 3];
  __shared__ int cnt[K];
  if (threadIdx.x < K) { cs[threadIdx.x] = c[threadIdx.x]; cnt[threadIdx.x] = 0; }
  if (threadIdx.x < 3 * K) acc[threadIdx.x] = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float3 q = p[i];
    int best = 0; float bd = 3.4e38f;
    for (int k = 0; k < K; k++) {
      float dx = q.x - cs[k].x, dy = q.y - cs[k].y, dz = q.z - cs[k].z;
      float d = dx * dx + dy * dy + dz * dz;
      if (d < bd) { bd = d; best = k; }
    }
    if (label[i] != best) { atomicAdd(changed, 1); label[i] = best; }
    atomicAdd(&acc[3 * best], q.x); atomicAdd(&acc[3 * best + 1], q.y); atomicAdd(&acc[3 * best + 2], q.z);
    atomicAdd(&cnt[best], 1);
  }
  __syncthreads();
  if (threadIdx.x < 3 * K && acc[threadIdx.x] != 0.0f) atomicAdd(&sums[threadIdx.x], acc[threadIdx.x]);
  if (threadIdx.x < K && cnt[threadIdx.x]) atomicAdd(&counts[threadIdx.x], cnt[threadIdx.x]);
}
__global__ void update(float3 *c, float *sums, int *counts) {
  int k = threadIdx.x;
  if (k < K && counts[k] > 0) c[k] = make_float3(sums[3 * k] / counts[k], sums[3 * k + 1] / counts[k], sums[3 * k + 2] / counts[k]);
  __syncthreads();
  if (k < 3 * K) sums[k] = 0.0f;
  if (k < K) counts[k] = 0;
}

int main() {
  const int N = 1 << 17, IT = 10;
  std::vector<float3> p(N), c(K);
  unsigned h = 99;
  auto rnd = [&]() { h = h * 1664525u + 1013904223u; return (float)(h >> 8) / 16777216.0f; };
  for (int i = 0; i < N; i++) {
    int g = i % K;
    p[i] = make_float3((g & 3) * 4.0f + rnd(), ((g >> 2) & 3) * 4.0f + rnd(), (g % 5) * 1.0f + rnd());
  }
  for (int k = 0; k < K; k++) c[k] = p[k * 16 + (k % 4)];  // seeds from four groups only
  float3 *dp, *dc; int *dl, *dcnt, *dch; float *ds;
  CK(cudaMalloc(&dp, N * sizeof(float3))); CK(cudaMalloc(&dc, K * sizeof(float3)));
  CK(cudaMalloc(&dl, N * 4)); CK(cudaMalloc(&dcnt, K * 4)); CK(cudaMalloc(&dch, IT * 4)); CK(cudaMalloc(&ds, 3 * K * 4));
  CK(cudaMemcpy(dp, p.data(), N * sizeof(float3), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, c.data(), K * sizeof(float3), cudaMemcpyHostToDevice));
  CK(cudaMemset(dl, 0xff, N * 4)); CK(cudaMemset(dcnt, 0, K * 4)); CK(cudaMemset(dch, 0, IT * 4)); CK(cudaMemset(ds, 0, 3 * K * 4));
  for (int it = 0; it < IT; it++) {
    assign<<<N / 256, 256>>>(dp, N, dc, dl, ds, dcnt, dch + it);
    update<<<1, 64>>>(dc, ds, dcnt);
  }
  CK(cudaGetLastError());
  std::vector<float3> gc(K); std::vector<int> gl(N), gch(IT);
  CK(cudaMemcpy(gc.data(), dc, K * sizeof(float3), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gl.data(), dl, N * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gch.data(), dch, IT * 4, cudaMemcpyDeviceToHost));
  // Host reference in double.
  std::vector<double> hc(3 * K); std::vector<int> hl(N, -1), hch(IT, 0);
  for (int k = 0; k < K; k++) { hc[3 * k] = c[k].x; hc[3 * k + 1] = c[k].y; hc[3 * k + 2] = c[k].z; }
  for (int it = 0; it < IT; it++) {
    std::vector<double> s(3 * K, 0); std::vector<int> n(K, 0);
    for (int i = 0; i < N; i++) {
      int best = 0; float bd = 3.4e38f;
      for (int k = 0; k < K; k++) {
        float cx = (float)hc[3 * k], cy = (float)hc[3 * k + 1], cz = (float)hc[3 * k + 2];
        float dx = p[i].x - cx, dy = p[i].y - cy, dz = p[i].z - cz;
        float d = dx * dx + dy * dy + dz * dz;
        if (d < bd) { bd = d; best = k; }
      }
      if (hl[i] != best) { hch[it]++; hl[i] = best; }
      s[3 * best] += p[i].x; s[3 * best + 1] += p[i].y; s[3 * best + 2] += p[i].z; n[best]++;
    }
    for (int k = 0; k < K; k++) if (n[k]) for (int j = 0; j < 3; j++) hc[3 * k + j] = s[3 * k + j] / n[k];
  }
  bool ok = true; int diff = 0;
  for (int i = 0; i < N; i++) diff += gl[i] != hl[i];
  if (diff > N / 1000) { printf("%d labels differ\n", diff); ok = false; }
  for (int k = 0; k < K; k++) {
    float g[3] = {gc[k].x, gc[k].y, gc[k].z};
    for (int j = 0; j < 3; j++) if (fabs(g[j] - hc[3 * k + j]) > 1e-2) { printf("centre %d.%d %f want %f\n", k, j, g[j], hc[3 * k + j]); ok = false; }
  }
  printf("changes:"); for (int it = 0; it < IT; it++) printf(" %d", gch[it]); printf("\n");
  printf("centre 0 (%.2f, %.2f, %.2f), centre 15 (%.2f, %.2f, %.2f)\n", gc[0].x, gc[0].y, gc[0].z, gc[15].x, gc[15].y, gc[15].z);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
