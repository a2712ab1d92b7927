// Shared addresses built in 32-bit registers that pass below the array before an offset brings
// them back: a 5-point stencil on 16 x 16 tiles with a one-cell halo whose row pointer is
// `tile + (ty + up) * 18 + tx` (`up` = -1 at run time: 72 bytes below the tile for the top row)
// read at `[+19]`, `[+36]`, `[+37]`, `[+38]` and `[+55]` words; a shift by a run-time negative
// amount (`s[t + shift]` read as `p[-shift]`); a dynamic shared array read from the end backwards
// through a pointer one past it; a local array indexed the same way.
// Checked exactly against the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

__global__ void stencil(const int *in, int *out, int w, int h, int up) {
  __shared__ int tile[18 * 18];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
  for (int k = ty * 16 + tx; k < 18 * 18; k += 256) {
    const int yy = blockIdx.y * 16 + k / 18 - 1, xx = blockIdx.x * 16 + k % 18 - 1;
    tile[k] = (yy >= 0 && yy < h && xx >= 0 && xx < w) ? in[yy * w + xx] : 0;
  }
  __syncthreads();
  const int *above = tile + (ty + up) * 18 + tx;   // up == -1: below the tile for ty == 0
  const int c = above[36 + 1], n = above[18 + 1], s = above[54 + 1], we = above[36], e = above[36 + 2];
  if (gx < w && gy < h) out[gy * w + gx] = 4 * c - n - s - we - e;
}

__global__ void shifted(const int *in, int *out, int shift, int n) {
  __shared__ int s[256];
  __shared__ int pad[64];
  const int t = threadIdx.x;
  const int i = blockIdx.x * 256 + t;
  s[t] = in[i];
  if (t < 64) pad[t] = t;
  __syncthreads();
  const int *p = s + (t + shift);   // shift < 0: below s for the first lanes
  int v = p[-shift];                 // s[t]
  const int j = (t + 255) & 255;
  const int *r = s + j + shift;
  v += 3 * r[-shift];                // s[t - 1], wrapped
  if (i < n) out[i] = v + pad[t & 63];
}

__global__ void backwards(const int *in, int *out, int len) {
  extern __shared__ int dyn[];
  const int t = threadIdx.x;
  for (int k = t; k < len; k += blockDim.x) dyn[k] = in[blockIdx.x * len + k];
  __syncthreads();
  const int *end = dyn + len;
  int acc = 0;
  for (int k = 1; k <= 8; ++k) acc += end[-(int)((t * k) % len) - 1];
  int loc[16];
  for (int k = 0; k < 16; ++k) loc[k] = acc + k * t;
  int *lp = loc + (t & 15) - 16;     // below loc
  out[blockIdx.x * blockDim.x + t] = acc + lp[16 - (t & 3)];
}

int main() {
  const int w = 200, h = 120;
  std::vector<int> in(w * h);
  unsigned st = 7u;
  auto rnd = [&]() { st = st * 1103515245u + 12345u; return (int)((st >> 8) % 2001) - 1000; };
  for (auto &v : in) v = rnd();
  int *din, *dout;
  CK(cudaMalloc(&din, w * h * 4)); CK(cudaMalloc(&dout, w * h * 4));
  CK(cudaMemcpy(din, in.data(), w * h * 4, cudaMemcpyHostToDevice));
  stencil<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(din, dout, w, h, -1);
  CK(cudaGetLastError());
  std::vector<int> out(w * h);
  CK(cudaMemcpy(out.data(), dout, w * h * 4, cudaMemcpyDeviceToHost));
  auto at = [&](int y, int x) { return (y >= 0 && y < h && x >= 0 && x < w) ? in[y * w + x] : 0; };
  int bad = 0; long long s1 = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int e = 4 * at(y, x) - at(y - 1, x) - at(y + 1, x) - at(y, x - 1) - at(y, x + 1);
      if (out[y * w + x] != e) ++bad;
      s1 += (long long)out[y * w + x] * ((x + y) % 7 + 1);
    }
  printf("stencil: %d differ, weighted sum %lld\n", bad, s1);

  const int n = 20 * 256;
  std::vector<int> a(n);
  for (auto &v : a) v = rnd();
  int *da, *db;
  CK(cudaMalloc(&da, n * 4)); CK(cudaMalloc(&db, n * 4));
  CK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  shifted<<<n / 256, 256>>>(da, db, -200, n);
  CK(cudaGetLastError());
  std::vector<int> b(n);
  CK(cudaMemcpy(b.data(), db, n * 4, cudaMemcpyDeviceToHost));
  int bad2 = 0; long long s2 = 0;
  for (int i = 0; i < n; ++i) {
    const int blk = i / 256, t = i % 256;
    const int e = a[i] + 3 * a[blk * 256 + ((t + 255) & 255)] + (t & 63);
    if (b[i] != e) ++bad2;
    s2 += (long long)b[i] * (i % 5 + 1);
  }
  printf("shifted: %d differ, weighted sum %lld\n", bad2, s2);

  const int len = 300, blocks = 16, threads = 128;
  std::vector<int> c(len * blocks);
  for (auto &v : c) v = rnd();
  int *dc, *dd;
  CK(cudaMalloc(&dc, len * blocks * 4)); CK(cudaMalloc(&dd, blocks * threads * 4));
  CK(cudaMemcpy(dc, c.data(), len * blocks * 4, cudaMemcpyHostToDevice));
  backwards<<<blocks, threads, len * 4>>>(dc, dd, len);
  CK(cudaGetLastError());
  std::vector<int> d(blocks * threads);
  CK(cudaMemcpy(d.data(), dd, blocks * threads * 4, cudaMemcpyDeviceToHost));
  int bad3 = 0; long long s3 = 0;
  for (int bl = 0; bl < blocks; ++bl)
    for (int t = 0; t < threads; ++t) {
      int acc = 0;
      for (int k = 1; k <= 8; ++k) acc += c[bl * len + len - ((t * k) % len) - 1];
      const int e = acc + acc + ((t & 15) - (t & 3)) * t;
      if (d[bl * threads + t] != e) ++bad3;
      s3 += d[bl * threads + t];
    }
  printf("backwards: %d differ, sum %lld\n", bad3, s3);
  const bool ok = bad == 0 && bad2 == 0 && bad3 == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
