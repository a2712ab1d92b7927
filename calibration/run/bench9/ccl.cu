// Connected-component labelling of a binary image (8-connectivity): labels start as the pixel
// index, each launch takes the minimum over the foreground neighbours from the previous buffer
// (ping-pong, so every launch's work is fixed), a `changed` flag set by a plain store and read by
// the host after each launch; then the components are counted (a pixel whose label is its own
// index) by a warp `__ballot_sync`/`__popc`, a shared sum and one global atomic a block, and the
// component sizes by global atomics on the root labels.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void initK(const unsigned char *img, int *lab, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) lab[i] = img[i] ? i : -1;
}

__global__ void propagate(const unsigned char *img, const int *in, int *out, int w, int h, int *changed) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (!img[i]) { out[i] = -1; return; }
  int m = in[i];
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= w || (dx == 0 && dy == 0)) continue;
      int l = in[yy * w + xx];
      if (l >= 0 && l < m) m = l;
    }
  }
  out[i] = m;
  if (m != in[i]) *changed = 1;
}

__global__ void countRoots(const int *lab, int n, int *roots, int *sizes) {
  __shared__ int warpSum[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int l = i < n ? lab[i] : -1;
  bool root = l == i;
  unsigned b = __ballot_sync(0xffffffffu, root);
  if ((threadIdx.x & 31) == 0) warpSum[threadIdx.x >> 5] = __popc(b);
  if (l >= 0) atomicAdd(&sizes[l], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int k = 0; k < blockDim.x / 32; ++k) s += warpSum[k];
    if (s) atomicAdd(roots, s);
  }
}

int main() {
  const int w = 96, h = 72, n = w * h;
  std::vector<unsigned char> img(n);
  unsigned s = 8;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      s = s * 1664525u + 1013904223u;
      int cx = (x / 12) * 12 + 6, cy = (y / 12) * 12 + 6;
      int d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      img[y * w + x] = d < 20 + (int)((s >> 27) % 16) || (y == 30 && x % 48 < 19) || ((x + y) % 31 == 0 && x > 80);
    }
  unsigned char *di; int *a, *b, *dc, *dr, *ds;
  CK(cudaMalloc(&di, n)); CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4));
  CK(cudaMalloc(&dc, 4)); CK(cudaMalloc(&dr, 4)); CK(cudaMalloc(&ds, n * 4));
  CK(cudaMemcpy(di, img.data(), n, cudaMemcpyHostToDevice));
  initK<<<(n + 255) / 256, 256>>>(di, a, n);
  dim3 bl(32, 8), gr((w + 31) / 32, (h + 7) / 8);
  int it = 0, changed = 1;
  while (changed && it < 200) {
    CK(cudaMemset(dc, 0, 4));
    propagate<<<gr, bl>>>(di, a, b, w, h, dc);
    CK(cudaMemcpy(&changed, dc, 4, cudaMemcpyDeviceToHost));
    std::swap(a, b); ++it;
  }
  CK(cudaMemset(dr, 0, 4)); CK(cudaMemset(ds, 0, n * 4));
  countRoots<<<(n + 255) / 256, 256>>>(a, n, dr, ds);
  CK(cudaGetLastError());
  std::vector<int> lab(n), sz(n); int roots;
  CK(cudaMemcpy(lab.data(), a, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sz.data(), ds, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&roots, dr, 4, cudaMemcpyDeviceToHost));
  // host: union by flood fill, the label the smallest index of the component
  std::vector<int> hl(n, -1), stack;
  int comps = 0, largest = 0;
  for (int i = 0; i < n; ++i) {
    if (!img[i] || hl[i] >= 0) continue;
    ++comps; int size = 0;
    stack.push_back(i); hl[i] = i;
    while (!stack.empty()) {
      int p = stack.back(); stack.pop_back(); ++size;
      int px = p % w, py = p / w;
      for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
        int xx = px + dx, yy = py + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        int q = yy * w + xx;
        if (img[q] && hl[q] < 0) { hl[q] = i; stack.push_back(q); }
      }
    }
    if (size > largest) largest = size;
  }
  int bad = roots != comps;
  for (int i = 0; i < n; ++i) bad += lab[i] != hl[i];
  int gl = 0; for (int i = 0; i < n; ++i) if (sz[i] > gl) gl = sz[i];
  bad += gl != largest;
  printf("ccl %dx%d: %d iterations, %d components, largest %d\n", w, h, it, roots, gl);
  printf("ccl %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
