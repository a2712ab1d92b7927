// Shared-access wavefront probe (loads and stores): each launch is one warp running K predicated
// shared accesses of one width and one kind, in this order, each the pattern of one line of the
// input file (the lanes that access and each lane's byte offset; inactive lanes' address registers
// hold the offsets given too). ptxas keeps the K inline-asm accesses in order (volatile asm), so
// the k-th LDS (STS) of the source page is line k of the launch; its predicated-on thread count
// checks it.
//   ./probe PATTERNS [single]   PATTERNS: lines "op width mask_hex a0 ... a31" (op ld or st; byte
//   offsets), width 8 or 16; "single": one line per launch (the other 31 accesses touch nothing),
//   so that the L1's own per-launch count is the line's.
// Prints per launch the lines it ran. Own code for warpscope's calibration.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define K 32
#define SMEM 49152

template <int W, bool ST> struct Acc;
template <> struct Acc<8, false> {
  static __device__ __forceinline__ void go(unsigned a, unsigned on, unsigned long long& acc) {
    unsigned long long v = 0;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; @p ld.volatile.shared.u64 %0, [%1]; }" : "+l"(v) : "r"(a), "r"(on) : "memory");
    acc += v;
  }
};
template <> struct Acc<16, false> {
  static __device__ __forceinline__ void go(unsigned a, unsigned on, unsigned long long& acc) {
    unsigned x = 0, y = 0, z = 0, w = 0;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %4, 0; @p ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%5]; }"
                 : "+r"(x), "+r"(y), "+r"(z), "+r"(w) : "r"(on), "r"(a) : "memory");
    acc += x + y + z + w;
  }
};
template <> struct Acc<8, true> {
  static __device__ __forceinline__ void go(unsigned a, unsigned on, unsigned long long& acc) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; @p st.volatile.shared.u64 [%0], %2; }" :: "r"(a), "r"(on), "l"(acc) : "memory");
    acc += 3;
  }
};
template <> struct Acc<16, true> {
  static __device__ __forceinline__ void go(unsigned a, unsigned on, unsigned long long& acc) {
    unsigned x = static_cast<unsigned>(acc);
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; @p st.volatile.shared.v4.u32 [%0], {%2,%3,%4,%5}; }"
                 :: "r"(a), "r"(on), "r"(x), "r"(x + 1), "r"(x + 2), "r"(x + 3) : "memory");
    acc += 5;
  }
};

template <int W, bool ST> __global__ void probe(const unsigned* off, const unsigned* masks, unsigned long long* out) {
  __shared__ __align__(16) unsigned char s[SMEM];
  unsigned lane = threadIdx.x;
  if (!ST) {
    for (unsigned i = lane; i < SMEM / 4; i += 32) reinterpret_cast<unsigned*>(s)[i] = i * 2654435761u;
    __syncwarp();
  }
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s));
  unsigned a[K], on[K];
#pragma unroll
  for (int k = 0; k < K; ++k) { a[k] = base + off[k * 32 + lane]; on[k] = masks[k] >> lane & 1; }
  unsigned long long acc = lane;
#pragma unroll
  for (int k = 0; k < K; ++k) Acc<W, ST>::go(a[k], on[k], acc);
  __syncwarp();
  if (ST) acc += reinterpret_cast<unsigned*>(s)[lane * 7];
  out[lane] = acc;
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: probe PATTERNS [single]\n"); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 2; }
  struct Line { int st, w; unsigned mask; unsigned a[32]; };
  std::vector<Line> lines;
  Line l;
  char op[8];
  while (fscanf(f, "%7s %d %x", op, &l.w, &l.mask) == 3) {
    l.st = !strcmp(op, "st");
    if (!l.st && strcmp(op, "ld")) { fprintf(stderr, "line %zu: op %s\n", lines.size() + 1, op); return 2; }
    if (l.w != 8 && l.w != 16) { fprintf(stderr, "line %zu: width %d\n", lines.size() + 1, l.w); return 2; }
    for (int i = 0; i < 32; ++i) if (fscanf(f, "%u", &l.a[i]) != 1) { fprintf(stderr, "short line %zu\n", lines.size() + 1); return 2; }
    for (int i = 0; i < 32; ++i) if (l.a[i] % l.w || l.a[i] + l.w > SMEM) { fprintf(stderr, "line %zu: bad offset\n", lines.size() + 1); return 2; }
    lines.push_back(l);
  }
  unsigned *doff, *dmask; unsigned long long* dout;
  cudaMalloc(&doff, K * 32 * 4); cudaMalloc(&dmask, K * 4); cudaMalloc(&dout, 32 * 8);
  const int per = argc > 2 && !strcmp(argv[2], "single") ? 1 : K;
  size_t i = 0; int launch = 0;
  while (i < lines.size()) {
    int w = lines[i].w, st = lines[i].st;
    std::vector<unsigned> off(K * 32, 0), mk(K, 0);
    size_t first = i; int k = 0;
    // a launch takes up to K consecutive lines of one width and kind; unused slots touch nothing
    while (k < per && i < lines.size() && lines[i].w == w && lines[i].st == st) {
      memcpy(&off[k * 32], lines[i].a, 128); mk[k] = lines[i].mask; ++k; ++i;
    }
    cudaMemcpy(doff, off.data(), K * 32 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dmask, mk.data(), K * 4, cudaMemcpyHostToDevice);
    if (w == 8 && !st) probe<8, false><<<1, 32>>>(doff, dmask, dout);
    else if (w == 16 && !st) probe<16, false><<<1, 32>>>(doff, dmask, dout);
    else if (w == 8) probe<8, true><<<1, 32>>>(doff, dmask, dout);
    else probe<16, true><<<1, 32>>>(doff, dmask, dout);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "launch %d: %s\n", launch, cudaGetErrorString(e)); return 1; }
    printf("launch %d op %s width %d lines %zu-%zu\n", launch, st ? "st" : "ld", w, first + 1, i);
    ++launch;
  }
  return 0;
}
