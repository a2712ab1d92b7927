// A bilateral filter on a 330 x 210 float image (not a multiple of the 16 x 16 blocks): a 22 x 22
// tile with a 3-pixel halo loaded by a strided loop with clamped coordinates, 7 x 7 spatial
// weights in __constant__ memory, range weights by __expf of the squared difference, taps past
// a cutoff skipped (data-dependent), the result divided by the weight sum. Two range widths.
// Checked against the host's float computation within a tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

constexpr int R = 3, T = 16, W = T + 2 * R;
__constant__ float cSpatial[(2 * R + 1) * (2 * R + 1)];

__global__ void bilateral(const float *__restrict__ in, float *__restrict__ out, int w, int h, float inv2s2, float cut) {
  __shared__ float tile[W][W];
  const int bx = blockIdx.x * T - R, by = blockIdx.y * T - R;
  for (int i = threadIdx.y * T + threadIdx.x; i < W * W; i += T * T) {
    const int ty = i / W, tx = i % W;
    const int gx = min(max(bx + tx, 0), w - 1), gy = min(max(by + ty, 0), h - 1);
    tile[ty][tx] = in[gy * w + gx];
  }
  __syncthreads();
  const int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x >= w || y >= h) return;
  const float c = tile[threadIdx.y + R][threadIdx.x + R];
  float sum = 0.f, wsum = 0.f;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      const float v = tile[threadIdx.y + R + dy][threadIdx.x + R + dx];
      const float d = v - c;
      if (fabsf(d) > cut) continue;
      const float wt = cSpatial[(dy + R) * (2 * R + 1) + dx + R] * __expf(-d * d * inv2s2);
      sum += wt * v;
      wsum += wt;
    }
  out[y * w + x] = sum / wsum;
}

int main() {
  const int w = 330, h = 210;
  std::vector<float> img(w * h), sp((2 * R + 1) * (2 * R + 1));
  unsigned s = 777u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 65536.f; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] = ((x / 37 + y / 23) % 3) * 0.4f + 0.08f * rnd();   // patches with noise
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) sp[(dy + R) * (2 * R + 1) + dx + R] = expf(-(dx * dx + dy * dy) / 8.f);
  CK(cudaMemcpyToSymbol(cSpatial, sp.data(), sp.size() * 4));
  float *dI, *dO;
  CK(cudaMalloc(&dI, w * h * 4)); CK(cudaMalloc(&dO, w * h * 4));
  CK(cudaMemcpy(dI, img.data(), w * h * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  const float sigmas[2] = {0.05f, 0.3f}, cuts[2] = {0.2f, 10.f};
  for (int k = 0; k < 2; ++k) {
    const float inv = 1.f / (2.f * sigmas[k] * sigmas[k]);
    bilateral<<<dim3((w + T - 1) / T, (h + T - 1) / T), dim3(T, T)>>>(dI, dO, w, h, inv, cuts[k]);
    CK(cudaGetLastError());
    std::vector<float> out(w * h);
    CK(cudaMemcpy(out.data(), dO, w * h * 4, cudaMemcpyDeviceToHost));
    double worst = 0, sum = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float c = img[y * w + x], a = 0, b = 0;
        for (int dy = -R; dy <= R; ++dy)
          for (int dx = -R; dx <= R; ++dx) {
            int xx = std::min(std::max(x + dx, 0), w - 1), yy = std::min(std::max(y + dy, 0), h - 1);
            float v = img[yy * w + xx], d = v - c;
            if (fabsf(d) > cuts[k]) continue;
            float wt = sp[(dy + R) * (2 * R + 1) + dx + R] * expf(-d * d * inv);
            a += wt * v; b += wt;
          }
        worst = fmax(worst, fabs(a / b - out[y * w + x]));
        sum += out[y * w + x];
      }
    printf("bilateral sigma %.2f cut %.1f: sum %.4f, max error %.2e\n", sigmas[k], cuts[k], sum, worst);
    bad += worst > 1e-4;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
