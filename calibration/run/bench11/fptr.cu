// Indirect calls and recursion: a table of `__device__` function pointers indexed by each element's
// opcode (a divergent indirect call in a loop), a function pointer fetched on the host with
// `cudaMemcpyFromSymbol` and passed as a kernel argument, a functor-templated kernel; a recursive
// quadtree build-free count (points in a disc by recursive descent of an implicit quadtree over a
// sorted Morton grid, depth from the data) and a recursive tree evaluation of per-thread integer
// expressions (`__noinline__`, the stack set by `cudaDeviceSetLimit`). The host computes all.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef int (*op_t)(int, int);
__device__ __noinline__ int opAdd(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
__device__ __noinline__ int opXorMul(int a, int b) { return (int)((unsigned)(a ^ b) * 3u); }
__device__ __noinline__ int opMax(int a, int b) { return (int)(a > b ? (unsigned)a - (unsigned)b : (unsigned)b - (unsigned)a); }
__device__ __noinline__ int opLoop(int a, int b) {
  unsigned r = a;
  for (int i = 0; i < (b & 7); ++i) r = r * 5u + i;
  return (int)r;
}
__device__ op_t d_ops[4] = {opAdd, opXorMul, opMax, opLoop};
__device__ op_t d_pick = opXorMul;

__global__ void interpret(const unsigned char *code, const int *arg, int *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = i;
  for (int s = 0; s < steps; ++s) {
    int c = code[(i * 7 + s * 3) % n] & 3;
    acc = d_ops[c](acc, arg[(i + s) % n]);
  }
  out[i] = acc;
}

__global__ void applyPtr(op_t f, const int *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(a[i], i);
}

struct Poly { int c0, c1, c2; __device__ int operator()(int x) const { return (c2 * x + c1) * x + c0; } };
struct Collatz { __device__ int operator()(int x) const { int s = 0; unsigned v = x + 1; while (v != 1 && s < 300) { v = (v & 1) ? 3 * v + 1 : v >> 1; ++s; } return s; } };

template <typename F> __global__ void mapF(F f, const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

// points sorted in Morton order on a 256x256 grid; node (level, prefix) covers a square;
// count points within radius of (qx, qy) by recursion, leaves scanned linearly
__device__ __noinline__ int lowerBound(const unsigned *keys, int lo, int hi, unsigned k) {
  while (lo < hi) { int m = (lo + hi) >> 1; if (keys[m] < k) lo = m + 1; else hi = m; }
  return lo;
}
__device__ __noinline__ int countDisc(const unsigned *keys, const short2 *pts, int lo, int hi, int x0, int y0,
                                      int size, int qx, int qy, int r2) {
  if (lo >= hi) return 0;
  int cx = qx < x0 ? x0 : (qx >= x0 + size ? x0 + size - 1 : qx);
  int cy = qy < y0 ? y0 : (qy >= y0 + size ? y0 + size - 1 : qy);
  if ((cx - qx) * (cx - qx) + (cy - qy) * (cy - qy) > r2) return 0;
  if (hi - lo <= 8 || size == 1) {
    int c = 0;
    for (int i = lo; i < hi; ++i) {
      int dx = pts[i].x - qx, dy = pts[i].y - qy;
      c += dx * dx + dy * dy <= r2;
    }
    return c;
  }
  int h = size >> 1, c = 0;
  unsigned span = (unsigned)h * h;
  unsigned base = keys[lo] / (span * 4) * (span * 4);
  int b = lo;
  for (int q = 0; q < 4; ++q) {
    int e = q == 3 ? hi : lowerBound(keys, b, hi, base + span * (q + 1));
    c += countDisc(keys, pts, b, e, x0 + (q & 1) * h, y0 + (q >> 1) * h, h, qx, qy, r2);
    b = e;
  }
  return c;
}
__global__ void discQuery(const unsigned *keys, const short2 *pts, int np, const int *qs, int *out, int nq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  out[i] = countDisc(keys, pts, 0, np, 0, 0, 256, qs[3 * i], qs[3 * i + 1], qs[3 * i + 2]);
}

// expression trees: node k of tree t: op in {0: leaf, 1: +, 2: *, 3: -}, children 2k+1, 2k+2
__device__ __noinline__ int evalNode(const unsigned char *ops, const int *vals, int base, int k) {
  unsigned char o = ops[base + k];
  if (o == 0) return vals[base + k];
  int a = evalNode(ops, vals, base, 2 * k + 1);
  int b = evalNode(ops, vals, base, 2 * k + 2);
  unsigned ua = a, ub = b;
  return (int)(o == 1 ? ua + ub : (o == 2 ? ua * ub : ua - ub));
}
__global__ void evalTrees(const unsigned char *ops, const int *vals, int *out, int nt, int tsz) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nt) out[t] = evalNode(ops, vals, t * tsz, 0);
}

// host models
static int hop(int c, int a, int b) {
  switch (c) {
    case 0: return (int)((unsigned)a + (unsigned)b);
    case 1: return (int)((unsigned)(a ^ b) * 3u);
    case 2: return (int)(a > b ? (unsigned)a - (unsigned)b : (unsigned)b - (unsigned)a);
    default: { unsigned r = a; for (int i = 0; i < (b & 7); ++i) r = r * 5u + i; return (int)r; }
  }
}
static int hEval(const std::vector<unsigned char> &ops, const std::vector<int> &vals, int base, int k) {
  if (ops[base + k] == 0) return vals[base + k];
  int a = hEval(ops, vals, base, 2 * k + 1), b = hEval(ops, vals, base, 2 * k + 2);
  unsigned ua = a, ub = b;
  return (int)(ops[base + k] == 1 ? ua + ub : (ops[base + k] == 2 ? ua * ub : ua - ub));
}
static unsigned morton(unsigned x, unsigned y) {
  unsigned k = 0;
  for (int b = 0; b < 8; ++b) k |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1);
  return k;
}
static unsigned rng = 4242u;
static unsigned rnd(unsigned m) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng % m; }

int main() {
  int fails = 0;
  CK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
  const int n = 20000, steps = 24;
  std::vector<unsigned char> code(n);
  std::vector<int> arg(n), out(n);
  for (int i = 0; i < n; ++i) { code[i] = (unsigned char)rnd(256); arg[i] = (int)rnd(2001) - 1000; }
  unsigned char *dcode; int *darg, *dout;
  CK(cudaMalloc(&dcode, n)); CK(cudaMalloc(&darg, n * 4)); CK(cudaMalloc(&dout, n * 4));
  CK(cudaMemcpy(dcode, code.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(darg, arg.data(), n * 4, cudaMemcpyHostToDevice));
  interpret<<<(n + 127) / 128, 128>>>(dcode, darg, dout, n, steps);
  CK(cudaGetLastError());
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0; long long sum = 0;
    for (int i = 0; i < n; ++i) {
      int acc = i;
      for (int s = 0; s < steps; ++s) acc = hop(code[(i * 7 + s * 3) % n] & 3, acc, arg[(i + s) % n]);
      bad += acc != out[i]; sum += (long long)acc * (1 + i % 3);
    }
    printf("interpret: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  op_t hp;
  CK(cudaMemcpyFromSymbol(&hp, d_pick, sizeof(op_t)));
  applyPtr<<<(n + 255) / 256, 256>>>(hp, darg, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0; long long sum = 0;
    for (int i = 0; i < n; ++i) { int e = hop(1, arg[i], i); bad += e != out[i]; sum += e; }
    printf("pointer argument: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  Poly p{7, -3, 2};
  mapF<<<(n + 255) / 256, 256>>>(p, darg, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long sum = 0;
  for (int i = 0; i < n; ++i) { int x = arg[i]; int e = (2 * x - 3) * x + 7; bad += e != out[i]; sum += e; }
  mapF<<<(n + 255) / 256, 256>>>(Collatz{}, darg, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int s = 0; unsigned v = arg[i] + 1;
    while (v != 1 && s < 300) { v = (v & 1) ? 3 * v + 1 : v >> 1; ++s; }
    bad += s != out[i]; sum += s;
  }
  printf("functors: %d wrong, checksum %lld\n", bad, sum);
  fails += bad != 0;
  // quadtree counts
  {
    const int np = 6000, nq = 2048;
    std::vector<unsigned> keys;
    std::vector<short2> pts;
    std::vector<std::pair<unsigned, short2>> kp;
    for (int i = 0; i < np; ++i) {
      // clustered: half the points near three centres
      int x, y;
      if (i & 1) { x = rnd(256); y = rnd(256); }
      else { int c = rnd(3); x = (60 + 70 * c + (int)rnd(31) - 15) & 255; y = (200 - 60 * c + (int)rnd(21) - 10) & 255; }
      short2 s; s.x = (short)x; s.y = (short)y;
      kp.push_back({morton(x, y), s});
    }
    std::sort(kp.begin(), kp.end(), [](const std::pair<unsigned, short2> &a, const std::pair<unsigned, short2> &b) { return a.first < b.first; });
    for (auto &e : kp) { keys.push_back(e.first); pts.push_back(e.second); }
    std::vector<int> qs(3 * nq), qo(nq);
    for (int i = 0; i < nq; ++i) { qs[3 * i] = rnd(256); qs[3 * i + 1] = rnd(256); int r = 1 + rnd(40); qs[3 * i + 2] = r * r; }
    unsigned *dk; short2 *dp; int *dq, *dqo;
    CK(cudaMalloc(&dk, np * 4)); CK(cudaMalloc(&dp, np * sizeof(short2)));
    CK(cudaMalloc(&dq, nq * 12)); CK(cudaMalloc(&dqo, nq * 4));
    CK(cudaMemcpy(dk, keys.data(), np * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dp, pts.data(), np * sizeof(short2), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dq, qs.data(), nq * 12, cudaMemcpyHostToDevice));
    discQuery<<<(nq + 127) / 128, 128>>>(dk, dp, np, dq, dqo, nq);
    CK(cudaGetLastError());
    CK(cudaMemcpy(qo.data(), dqo, nq * 4, cudaMemcpyDeviceToHost));
    int bad = 0; long long sum = 0;
    for (int i = 0; i < nq; ++i) {
      int c = 0;
      for (int j = 0; j < np; ++j) {
        int dx = pts[j].x - qs[3 * i], dy = pts[j].y - qs[3 * i + 1];
        c += dx * dx + dy * dy <= qs[3 * i + 2];
      }
      bad += c != qo[i]; sum += (long long)c * (1 + i % 5);
    }
    printf("quadtree: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  // expression trees of depth up to 7 (127 nodes), shapes from the data
  {
    const int nt = 3000, tsz = 127;
    std::vector<unsigned char> ops(nt * tsz, 0);
    std::vector<int> vals(nt * tsz);
    for (int t = 0; t < nt; ++t)
      for (int k = 0; k < tsz; ++k) {
        int depth = 31 - __builtin_clz(k + 1);
        bool inner = depth < 6 && (k == 0 || ops[t * tsz + (k - 1) / 2] != 0) && rnd(100) < 75 - 8 * depth;
        if (k > 0 && ops[t * tsz + (k - 1) / 2] == 0) inner = false;
        ops[t * tsz + k] = inner ? (unsigned char)(1 + rnd(3)) : 0;
        vals[t * tsz + k] = (int)rnd(19) - 9;
      }
    std::vector<int> res(nt);
    unsigned char *dops; int *dv, *dr;
    CK(cudaMalloc(&dops, nt * tsz)); CK(cudaMalloc(&dv, nt * tsz * 4)); CK(cudaMalloc(&dr, nt * 4));
    CK(cudaMemcpy(dops, ops.data(), nt * tsz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, vals.data(), nt * tsz * 4, cudaMemcpyHostToDevice));
    evalTrees<<<(nt + 63) / 64, 64>>>(dops, dv, dr, nt, tsz);
    CK(cudaGetLastError());
    CK(cudaMemcpy(res.data(), dr, nt * 4, cudaMemcpyDeviceToHost));
    int bad = 0; long long sum = 0;
    for (int t = 0; t < nt; ++t) { int e = hEval(ops, vals, t * tsz, 0); bad += e != res[t]; sum += e; }
    printf("trees: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  printf("fptr: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
