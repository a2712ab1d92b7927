// Conway's game of life on a torus, two ways, ping-pong buffers a generation a launch: cells as
// bytes in a 16x16 shared tile with a one-cell halo loaded by the edge threads (wrap-around
// indices by conditional adds), the rule as a branchy count test; and cells packed 32 to a word
// (a thread a word, the neighbours' bits from the words left and right by funnel shifts, the
// eight-input count by a bit-sliced adder of full adders). The host runs the same generations.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ int wrap(int v, int n) { if (v < 0) v += n; if (v >= n) v -= n; return v; }

__global__ void lifeBytes(const unsigned char *in, unsigned char *out, int w, int h) {
  __shared__ unsigned char t[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  bool inside = x < w && y < h;
  if (inside) {
    t[ty + 1][tx + 1] = in[y * w + x];
    bool l = tx == 0, r = tx == 15 || x == w - 1, u = ty == 0, d = ty == 15 || y == h - 1;
    int xm = wrap(x - 1, w), xp = wrap(x + 1, w), ym = wrap(y - 1, h), yp = wrap(y + 1, h);
    if (l) t[ty + 1][0] = in[y * w + xm];
    if (r) t[ty + 1][tx + 2] = in[y * w + xp];
    if (u) t[0][tx + 1] = in[ym * w + x];
    if (d) t[ty + 2][tx + 1] = in[yp * w + x];
    if (l && u) t[0][0] = in[ym * w + xm];
    if (r && u) t[0][tx + 2] = in[ym * w + xp];
    if (l && d) t[ty + 2][0] = in[yp * w + xm];
    if (r && d) t[ty + 2][tx + 2] = in[yp * w + xp];
  }
  __syncthreads();
  if (!inside) return;
  int n = t[ty][tx] + t[ty][tx + 1] + t[ty][tx + 2] + t[ty + 1][tx] + t[ty + 1][tx + 2] +
          t[ty + 2][tx] + t[ty + 2][tx + 1] + t[ty + 2][tx + 2];
  unsigned char c = t[ty + 1][tx + 1];
  unsigned char r;
  if (c) r = (n == 2 || n == 3);
  else r = (n == 3);
  out[y * w + x] = r;
}

__device__ __forceinline__ void fa(unsigned a, unsigned b, unsigned c, unsigned &s, unsigned &k) {
  s = a ^ b ^ c; k = (a & b) | (c & (a ^ b));
}

// words per row W (32 * W cells), h rows; a thread a word
__global__ void lifeBits(const unsigned *in, unsigned *out, int W, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= W * h) return;
  int y = i / W, x = i - y * W;
  int ym = y == 0 ? h - 1 : y - 1, yp = y == h - 1 ? 0 : y + 1;
  int xm = x == 0 ? W - 1 : x - 1, xp = x == W - 1 ? 0 : x + 1;
  unsigned rows[3][3];
  int ys[3] = {ym, y, yp};
#pragma unroll
  for (int r = 0; r < 3; ++r) {
    unsigned l = in[ys[r] * W + xm], c = in[ys[r] * W + x], rr = in[ys[r] * W + xp];
    rows[r][0] = __funnelshift_l(l, c, 1);   // west neighbour of bit b is bit b-1
    rows[r][1] = c;
    rows[r][2] = __funnelshift_r(c, rr, 1);  // east neighbour of bit b is bit b+1
  }
  unsigned s0, c0, s1, c1, s2, c2;
  fa(rows[0][0], rows[0][1], rows[0][2], s0, c0);
  fa(rows[1][0], rows[1][2], rows[2][0], s1, c1);
  fa(rows[2][1], rows[2][2], 0u, s2, c2);
  unsigned o1, k1;
  fa(s0, s1, s2, o1, k1);          // ones bit o1, carries k1 (weight 2)
  unsigned t1, t2, t3, t4;
  fa(c0, c1, c2, t1, t2);          // t1 weight 2, t2 weight 4
  unsigned two = t1 ^ k1, four = (t1 & k1) ^ t2, eight = (t1 & k1) & t2;
  (void)t3; (void)t4;
  unsigned alive = rows[1][1];
  // count 3: two & o1 & ~four & ~eight; count 2 alive: two & ~o1 & ~four & ~eight
  unsigned nf = ~four & ~eight;
  out[i] = nf & two & (o1 | alive);
}

static void hostLife(std::vector<unsigned char> &g, int w, int h) {
  std::vector<unsigned char> o(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy) n += g[((y + dy + h) % h) * w + (x + dx + w) % w];
      o[y * w + x] = g[y * w + x] ? (n == 2 || n == 3) : n == 3;
    }
  g = o;
}

int main() {
  int bad = 0;
  {
    const int w = 100, h = 60, gens = 24;
    std::vector<unsigned char> g(w * h);
    unsigned s = 77;
    for (auto &c : g) { s = s * 1664525u + 1013904223u; c = (s >> 28) < 5; }
    unsigned char *a, *b;
    CK(cudaMalloc(&a, w * h)); CK(cudaMalloc(&b, w * h));
    CK(cudaMemcpy(a, g.data(), w * h, cudaMemcpyHostToDevice));
    dim3 bl(16, 16), gr((w + 15) / 16, (h + 15) / 16);
    for (int i = 0; i < gens; ++i) { lifeBytes<<<gr, bl>>>(a, b, w, h); std::swap(a, b); }
    CK(cudaGetLastError());
    std::vector<unsigned char> r(w * h);
    CK(cudaMemcpy(r.data(), a, w * h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < gens; ++i) hostLife(g, w, h);
    int alive = 0;
    for (int i = 0; i < w * h; ++i) { bad += r[i] != g[i]; alive += r[i]; }
    if (bad) printf("bytes: %d bad\n", bad);
    printf("bytes %dx%d after %d generations: %d alive\n", w, h, gens, alive);
  }
  {
    const int W = 4, h = 64, w = 32 * W, gens = 24;
    std::vector<unsigned char> g(w * h);
    unsigned s = 2024;
    for (auto &c : g) { s = s * 1664525u + 1013904223u; c = (s >> 29) < 3; }
    std::vector<unsigned> p(W * h, 0u);
    for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x) if (g[y * w + x]) p[y * W + x / 32] |= 1u << (x % 32);
    unsigned *a, *b;
    CK(cudaMalloc(&a, W * h * 4)); CK(cudaMalloc(&b, W * h * 4));
    CK(cudaMemcpy(a, p.data(), W * h * 4, cudaMemcpyHostToDevice));
    for (int i = 0; i < gens; ++i) { lifeBits<<<(W * h + 127) / 128, 128>>>(a, b, W, h); std::swap(a, b); }
    CK(cudaGetLastError());
    CK(cudaMemcpy(p.data(), a, W * h * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < gens; ++i) hostLife(g, w, h);
    int alive = 0;
    for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x) {
      int c = (p[y * W + x / 32] >> (x % 32)) & 1;
      bad += c != g[y * w + x]; alive += c;
    }
    printf("bits %dx%d after %d generations: %d alive\n", w, h, gens, alive);
  }
  printf("life %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
