// Warp intrinsics in divergent code: __match_any_sync (a histogram aggregated by key, one atomic
// per distinct key of the active lanes), __match_all_sync, __reduce_{add,min,max,and,or,xor}_sync
// over the full warp and over the partial mask __activemask() returns inside a branch. The host
// checks every result.
#include <cstdio>
#include <vector>

__global__ void matchHist(const int* keys, int* hist, int* leaders) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = keys[i];
  if (k >= 0) {  // about half the lanes: a partial mask
    unsigned active = __activemask();
    unsigned peers = __match_any_sync(active, k);
    int lane = threadIdx.x & 31;
    int leader = __ffs(peers) - 1;
    if (lane == leader) { atomicAdd(&hist[k], __popc(peers)); atomicAdd(leaders, 1); }
  }
}

__global__ void matchAll(const int* v, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pred = 0;
  unsigned m = __match_all_sync(0xffffffffu, v[i] >> 6, &pred);
  if ((threadIdx.x & 31) == 0) out[i / 32] = pred ? (int)(m == 0xffffffffu) + 2 : (int)m;
}

__global__ void reduxAll(const unsigned* v, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = v[i];
  unsigned a = __reduce_add_sync(0xffffffffu, x);
  unsigned mn = __reduce_min_sync(0xffffffffu, x);
  int mxs = __reduce_max_sync(0xffffffffu, (int)x - 500000);
  unsigned an = __reduce_and_sync(0xffffffffu, x | 0x100);
  unsigned o = __reduce_or_sync(0xffffffffu, x & 0xff00);
  unsigned xo = __reduce_xor_sync(0xffffffffu, x);
  unsigned w = i / 32;
  if ((threadIdx.x & 31) == 3) {
    out[w * 6 + 0] = a; out[w * 6 + 1] = mn; out[w * 6 + 2] = (unsigned)mxs;
    out[w * 6 + 3] = an; out[w * 6 + 4] = o; out[w * 6 + 5] = xo;
  }
}

// the lanes with an odd value reduce among themselves; the others among themselves
__global__ void reduxPartial(const unsigned* v, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = v[i];
  unsigned w = i / 32;
  if (x & 1) {
    unsigned m = __activemask();
    unsigned s = __reduce_add_sync(m, x);
    unsigned mx = __reduce_max_sync(m, x);
    if ((threadIdx.x & 31) == 31 - __clz(m)) { out[w * 4] = s; out[w * 4 + 1] = mx; }
  } else {
    unsigned m = __activemask();
    unsigned s = __reduce_add_sync(m, x);
    unsigned mn = __reduce_min_sync(m, x);
    if ((threadIdx.x & 31) == __ffs(m) - 1) { out[w * 4 + 2] = s; out[w * 4 + 3] = mn; }
  }
}

int main() {
  const int N = 8192, K = 24, W = N / 32;
  std::vector<int> keys(N), v(N);
  std::vector<unsigned> u(N);
  unsigned x = 777;
  for (int i = 0; i < N; ++i) {
    x = x * 1664525u + 1013904223u;
    keys[i] = (x >> 20) % (2 * K) - K;   // half negative
    u[i] = (x >> 9) % 1000000;
    v[i] = (i / 32) % 3 == 0 ? 64 * (i / 32) + (i % 7) : (x >> 12) % 4096;
  }
  int *d_k, *d_h, *d_l, *d_v, *d_o; unsigned *d_u, *d_r;
  cudaMalloc(&d_k, N * 4); cudaMalloc(&d_h, K * 4); cudaMalloc(&d_l, 4); cudaMalloc(&d_v, N * 4);
  cudaMalloc(&d_o, W * 4); cudaMalloc(&d_u, N * 4); cudaMalloc(&d_r, W * 6 * 4);
  cudaMemcpy(d_k, keys.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_u, u.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemset(d_h, 0, K * 4); cudaMemset(d_l, 0, 4);
  bool ok = true;
  matchHist<<<N / 128, 128>>>(d_k, d_h, d_l);
  std::vector<int> hist(K); int leaders;
  cudaMemcpy(hist.data(), d_h, K * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&leaders, d_l, 4, cudaMemcpyDeviceToHost);
  int wantLeaders = 0;
  for (int w = 0; w < W; ++w) {
    bool seen[K] = {};
    for (int l = 0; l < 32; ++l) { int k = keys[w * 32 + l]; if (k >= 0 && !seen[k]) { seen[k] = true; ++wantLeaders; } }
  }
  for (int k = 0; k < K; ++k) { int c = 0; for (int i = 0; i < N; ++i) c += keys[i] == k; if (c != hist[k]) ok = false; }
  if (leaders != wantLeaders) ok = false;
  printf("matchHist leaders %d hist[5] %d\n", leaders, hist[5]);
  matchAll<<<N / 256, 256>>>(d_v, d_o);
  std::vector<int> ma(W);
  cudaMemcpy(ma.data(), d_o, W * 4, cudaMemcpyDeviceToHost);
  int allSame = 0;
  for (int w = 0; w < W; ++w) {
    bool same = true;
    for (int l = 1; l < 32; ++l) same &= (v[w * 32 + l] >> 6) == (v[w * 32] >> 6);
    int want = same ? 3 : 0;
    if (ma[w] != want) ok = false;
    allSame += same;
  }
  printf("matchAll uniform warps %d\n", allSame);
  reduxAll<<<N / 256, 256>>>(d_u, d_r);
  std::vector<unsigned> r(W * 6);
  cudaMemcpy(r.data(), d_r, W * 6 * 4, cudaMemcpyDeviceToHost);
  unsigned long long chk = 0;
  for (int w = 0; w < W; ++w) {
    unsigned a = 0, mn = ~0u, an = ~0u, o = 0, xo = 0; int mx = -2147483647;
    for (int l = 0; l < 32; ++l) {
      unsigned y = u[w * 32 + l];
      a += y; mn = y < mn ? y : mn; mx = (int)y - 500000 > mx ? (int)y - 500000 : mx;
      an &= y | 0x100; o |= y & 0xff00; xo ^= y;
    }
    unsigned want[6] = {a, mn, (unsigned)mx, an, o, xo};
    for (int j = 0; j < 6; ++j) { if (r[w * 6 + j] != want[j]) ok = false; chk = chk * 31 + r[w * 6 + j]; }
  }
  printf("reduxAll check %llu\n", chk);
  cudaMemset(d_r, 0, W * 6 * 4);
  reduxPartial<<<N / 128, 128>>>(d_u, d_r);
  cudaMemcpy(r.data(), d_r, W * 4 * 4, cudaMemcpyDeviceToHost);
  chk = 0;
  for (int w = 0; w < W; ++w) {
    unsigned so = 0, mx = 0, se = 0, mn = ~0u; int nodd = 0;
    for (int l = 0; l < 32; ++l) {
      unsigned y = u[w * 32 + l];
      if (y & 1) { so += y; mx = y > mx ? y : mx; ++nodd; } else { se += y; mn = y < mn ? y : mn; }
    }
    if (nodd > 0 && (r[w * 4] != so || r[w * 4 + 1] != mx)) ok = false;
    if (nodd < 32 && (r[w * 4 + 2] != se || r[w * 4 + 3] != mn)) ok = false;
    chk = chk * 31 + r[w * 4] + r[w * 4 + 3];
  }
  printf("reduxPartial check %llu\n", chk);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
