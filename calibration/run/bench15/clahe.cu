// Contrast-limited adaptive histogram equalisation (CLAHE) of a 512x384 8-bit image in 64x64
// tiles: a block a tile builds the tile's 256-bin histogram by shared atomicAdd, clips every bin
// at a limit (the excess summed by shared atomics), hands the excess back evenly (the remainder to
// the first bins), scans the bins (Hillis-Steele with a double buffer) and writes the tile's
// mapping; then a thread a pixel blends the four nearest tiles' mappings with integer bilinear
// weights (clamped at the image's edges), and a global histogram of the result is counted by
// atomicAdd. Everything integer, checked bit for bit against the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define W 512
#define H 384
#define T 64
#define TX (W / T)
#define TY (H / T)
#define LIMIT 40

__global__ void tileMaps(const unsigned char *img, unsigned char *maps) {
  __shared__ int hist[256], scan[2][256], excess;
  int t = threadIdx.x, tx = blockIdx.x, ty = blockIdx.y;
  hist[t] = 0;
  if (t == 0) excess = 0;
  __syncthreads();
  for (int k = t; k < T * T; k += 256) {
    int x = tx * T + (k % T), y = ty * T + k / T;
    atomicAdd(&hist[img[y * W + x]], 1);
  }
  __syncthreads();
  int h = hist[t];
  if (h > LIMIT) { atomicAdd(&excess, h - LIMIT); h = LIMIT; }
  __syncthreads();
  int e = excess;
  h += e / 256 + (t < e % 256 ? 1 : 0);
  scan[0][t] = h;
  __syncthreads();
  int src = 0;
  for (int off = 1; off < 256; off <<= 1) {
    int v = scan[src][t];
    if (t >= off) v += scan[src][t - off];
    scan[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  int cdf = scan[src][t];
  maps[(ty * TX + tx) * 256 + t] = (unsigned char)min(255, (cdf * 255 + T * T / 2) / (T * T));
}

__global__ void blend(const unsigned char *img, const unsigned char *maps, unsigned char *out, unsigned *hist) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  // position relative to tile centres in 1/T units
  int fx = x - T / 2, fy = y - T / 2;
  int x0 = fx < 0 ? 0 : fx / T, y0 = fy < 0 ? 0 : fy / T;
  int x1 = min(x0 + 1, TX - 1), y1 = min(y0 + 1, TY - 1);
  int wx = fx < 0 ? 0 : (x0 == TX - 1 ? 0 : fx - x0 * T), wy = fy < 0 ? 0 : (y0 == TY - 1 ? 0 : fy - y0 * T);
  int v = img[y * W + x];
  int m00 = maps[(y0 * TX + x0) * 256 + v], m01 = maps[(y0 * TX + x1) * 256 + v];
  int m10 = maps[(y1 * TX + x0) * 256 + v], m11 = maps[(y1 * TX + x1) * 256 + v];
  int top = m00 * (T - wx) + m01 * wx, bot = m10 * (T - wx) + m11 * wx;
  int o = (top * (T - wy) + bot * wy + T * T / 2) / (T * T);
  out[y * W + x] = (unsigned char)o;
  atomicAdd(&hist[o], 1u);
}

int main() {
  std::vector<unsigned char> img(W * H);
  unsigned s = 4242;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      s = s * 1103515245u + 12345u;
      int base = (x < W / 2) ? 40 + x / 16 : 150 + (y * x) % 37;  // a dark ramp and a bright texture
      if ((x / 50 + y / 40) % 5 == 0) base = 90 + (x % 20);
      img[y * W + x] = (unsigned char)std::min(255, base + (int)((s >> 16) % 24));
    }
  // host
  std::vector<unsigned char> hmaps(TX * TY * 256), href(W * H);
  for (int ty = 0; ty < TY; ty++)
    for (int tx = 0; tx < TX; tx++) {
      int hist[256] = {0}, ex = 0;
      for (int y = 0; y < T; y++) for (int x = 0; x < T; x++) hist[img[(ty * T + y) * W + tx * T + x]]++;
      for (int v = 0; v < 256; v++) if (hist[v] > LIMIT) { ex += hist[v] - LIMIT; hist[v] = LIMIT; }
      int cdf = 0;
      for (int v = 0; v < 256; v++) {
        cdf += hist[v] + ex / 256 + (v < ex % 256 ? 1 : 0);
        hmaps[(ty * TX + tx) * 256 + v] = (unsigned char)std::min(255, (cdf * 255 + T * T / 2) / (T * T));
      }
    }
  std::vector<unsigned> hhist(256, 0);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int fx = x - T / 2, fy = y - T / 2;
      int x0 = fx < 0 ? 0 : fx / T, y0 = fy < 0 ? 0 : fy / T;
      int x1 = std::min(x0 + 1, TX - 1), y1 = std::min(y0 + 1, TY - 1);
      int wx = fx < 0 ? 0 : (x0 == TX - 1 ? 0 : fx - x0 * T), wy = fy < 0 ? 0 : (y0 == TY - 1 ? 0 : fy - y0 * T);
      int v = img[y * W + x];
      int top = hmaps[(y0 * TX + x0) * 256 + v] * (T - wx) + hmaps[(y0 * TX + x1) * 256 + v] * wx;
      int bot = hmaps[(y1 * TX + x0) * 256 + v] * (T - wx) + hmaps[(y1 * TX + x1) * 256 + v] * wx;
      int o = (top * (T - wy) + bot * wy + T * T / 2) / (T * T);
      href[y * W + x] = (unsigned char)o; hhist[o]++;
    }
  unsigned char *dImg, *dMaps, *dOut; unsigned *dHist;
  CK(cudaMalloc(&dImg, W * H)); CK(cudaMalloc(&dMaps, TX * TY * 256)); CK(cudaMalloc(&dOut, W * H));
  CK(cudaMalloc(&dHist, 256 * sizeof(unsigned)));
  CK(cudaMemcpy(dImg, img.data(), W * H, cudaMemcpyHostToDevice));
  CK(cudaMemset(dHist, 0, 256 * sizeof(unsigned)));
  tileMaps<<<dim3(TX, TY), 256>>>(dImg, dMaps);
  blend<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(dImg, dMaps, dOut, dHist);
  CK(cudaGetLastError());
  std::vector<unsigned char> maps(TX * TY * 256), out(W * H); std::vector<unsigned> hist(256);
  CK(cudaMemcpy(maps.data(), dMaps, maps.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(out.data(), dOut, out.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hist.data(), dHist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool ok = maps == hmaps && out == href && hist == hhist;
  unsigned long long sum = 0; int lo = 255, hi = 0;
  for (int i = 0; i < W * H; i++) { sum += out[i]; lo = std::min(lo, (int)out[i]); hi = std::max(hi, (int)out[i]); }
  printf("%dx%d in %dx%d tiles: output sum %llu, range %d..%d, bin 128 %u\n", W, H, TX, TY, sum, lo, hi, hist[128]);
  printf("clahe: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
