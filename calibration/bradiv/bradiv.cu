// When does the GPU take ptxas's convergence check (`BRA.DIV`) before a warp collective? One
// kernel per (collective sequence, member mask, convergence) case; each lane records its
// __activemask() and its member mask just before the collectives, and their result, so the rows
// show per warp which lanes were active and which masks they passed. 2 blocks x 64 threads
// (4 warps); in[] holds 0..999 pseudo-random values. Prints one line per kernel and warp:
//   KERNEL warp W active A.. masks M.. result C
// (A: the distinct __activemask() values of the warp's recording lanes, M: their member masks,
// C: a checksum of every lane's result, -1 for lanes that did not run the collectives).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <set>
#include <string>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

#define NT 128
#define BLK 64
struct Rec { unsigned *am, *mk; int *res; const unsigned *masks; };

__device__ __forceinline__ unsigned lane() { return threadIdx.x & 31; }
__device__ __forceinline__ void rec(Rec r, int i, unsigned m) { r.am[i] = __activemask(); r.mk[i] = m; }

// Which lanes run the collectives (go) and with which member mask (m), by case MK:
//  0..4  tile of 16/8/4/2/1 lanes, mask computed at run time (0xff << (lane & ~7) for 8), converged
//  5     mask loaded from memory, 0xffffffff, converged (the full warp, not known to ptxas)
//  6     tile of 16 computed at run time, lanes < 16 only (the mask equals the active lanes)
//  7     tile of 8 computed at run time, lanes < 16 only (two whole tiles active, masks differ)
//  8     mask loaded from memory, 0x0000ffff, lanes < 16 only (equal to the active lanes)
//  9     mask loaded from memory, 0x00ffffff, lanes < 24 only (equal to the active lanes)
//  10    lanes < 8 pass 0xff, lanes >= 8 pass 0xffffff00 (two groups of different sizes)
//  11    __activemask() after divergence (odd values)
//  12    __activemask() converged
//  13    tile of 16 computed at run time, lanes >= 16 only
__device__ __forceinline__ bool pick(int MK, const Rec &r, int v, unsigned &m) {
  unsigned l = lane();
  switch (MK) {
    case 0: m = 0xffffu << (l & ~15u); return true;
    case 1: m = 0xffu << (l & ~7u); return true;
    case 2: m = 0xfu << (l & ~3u); return true;
    case 3: m = 0x3u << (l & ~1u); return true;
    case 4: m = 1u << l; return true;
    case 5: m = r.masks[0]; return true;
    case 6: m = 0xffffu << (l & ~15u); return l < 16;
    case 7: m = 0xffu << (l & ~7u); return l < 16;
    case 8: m = r.masks[1]; return l < 16;
    case 9: m = r.masks[2]; return l < 24;
    case 10: m = l < 8 ? 0xffu : 0xffffff00u; return true;
    case 11: m = 0; return v & 1;
    case 12: m = 0; return true;
    default: m = 0xffffu << (l & ~15u); return l >= 16;
  }
}

// OPS 0: three shuffles (xor 1, xor 2, down 1; width 32), 1: the shuffles then three votes (any,
// all, ballot), 2: reduce by __reduce_add_sync then match any then three votes
template <int MK, int OPS>
__global__ void raw(const int *in, Rec r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  unsigned m;
  int o = -1;
  if (pick(MK, r, v, m)) {
    if (MK == 11 || MK == 12) m = __activemask();
    rec(r, i, m);
    int s = v;
    if (OPS <= 1) {
      s += __shfl_xor_sync(m, s, 1); s += __shfl_xor_sync(m, s, 2); s += __shfl_down_sync(m, s, 1);
    } else {
      s = (int)__reduce_add_sync(m, (unsigned)s);
      s += (int)__match_any_sync(m, v & 3);
    }
    if (OPS >= 1) {
      unsigned a = __any_sync(m, v > 900), b = __all_sync(m, v > 0), c = __ballot_sync(m, v & 1);
      s ^= (int)(a | b << 1 | c << 2);
    }
    o = s;
  }
  r.res[i] = o;
}

// cooperative groups tiles as cgtiles' tileSums: inclusive_scan, then any, all, ballot; K: lanes
// below K run it (32: converged; K a multiple of W: whole tiles only)
template <int W, int K>
__global__ void tile(const int *in, Rec r) {
  cg::thread_block_tile<W> t = cg::tiled_partition<W>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  int o = -1;
  if ((int)lane() < K) {
    rec(r, i, 0);
    int sc = cg::inclusive_scan(t, v);
    bool a = t.any(v > 900), b = t.all(v > 0);
    unsigned c = t.ballot(v & 1);
    o = sc ^ (int)((a ? 1 : 0) | (b ? 2 : 0) | (c << 2));
  }
  r.res[i] = o;
}

// coalesced_threads() converged or inside a divergent branch (odd values): shfl, ballot, reduce
template <int DIV>
__global__ void coal(const int *in, Rec r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  int o = -1;
  if (!DIV || (v & 1)) {
    cg::coalesced_group g = cg::coalesced_threads();
    rec(r, i, 0);
    o = g.shfl(v, 0) + (int)g.ballot(v > 500) + cg::reduce(g, v, cg::plus<int>()) + g.any(v > 900);
  }
  r.res[i] = o;
}

struct K { std::string name; void (*launch)(const int *, Rec); };
#define R(MK, OPS) {"raw<" #MK "," #OPS ">", [](const int *a, Rec r) { raw<MK, OPS><<<NT / BLK, BLK>>>(a, r); }}
#define RS(MK) R(MK, 0), R(MK, 1), R(MK, 2)
#define T(W, KK) {"tile<" #W "," #KK ">", [](const int *a, Rec r) { tile<W, KK><<<NT / BLK, BLK>>>(a, r); }}
#define C(D) {"coal<" #D ">", [](const int *a, Rec r) { coal<D><<<NT / BLK, BLK>>>(a, r); }}

int main() {
  std::vector<K> ks = {
    RS(0), RS(1), RS(2), RS(3), RS(4), RS(5), RS(6), RS(7), RS(8), RS(9), RS(10), RS(11), RS(12), RS(13),
    T(32, 32), T(16, 32), T(8, 32), T(4, 32), T(2, 32), T(1, 32),
    T(16, 16), T(8, 16), T(4, 16), T(8, 8), T(4, 8), T(4, 4), T(2, 2),
    C(0), C(1),
  };
  std::vector<int> h(NT);
  unsigned x = 777;
  for (int i = 0; i < NT; ++i) { x = x * 1664525u + 1013904223u; h[i] = (x >> 8) % 1000; }
  int *dIn, *dRes; unsigned *dAm, *dMk, *dMasks;
  CK(cudaMalloc(&dIn, NT * 4)); CK(cudaMalloc(&dRes, NT * 4));
  CK(cudaMalloc(&dAm, NT * 4)); CK(cudaMalloc(&dMk, NT * 4)); CK(cudaMalloc(&dMasks, 16));
  unsigned hm[4] = {0xffffffffu, 0xffffu, 0xffffffu, 0};
  CK(cudaMemcpy(dIn, h.data(), NT * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dMasks, hm, 16, cudaMemcpyHostToDevice));
  Rec r{dAm, dMk, dRes, dMasks};
  for (auto &k : ks) {
    CK(cudaMemset(dAm, 0, NT * 4)); CK(cudaMemset(dMk, 0, NT * 4)); CK(cudaMemset(dRes, 0xff, NT * 4));
    k.launch(dIn, r);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<unsigned> am(NT), mk(NT); std::vector<int> res(NT);
    CK(cudaMemcpy(am.data(), dAm, NT * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mk.data(), dMk, NT * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(res.data(), dRes, NT * 4, cudaMemcpyDeviceToHost));
    for (int w = 0; w < NT / 32; ++w) {
      std::set<unsigned> a, m;
      long long c = 0;
      for (int l = 0; l < 32; ++l) {
        int i = w * 32 + l;
        if (am[i]) { a.insert(am[i]); m.insert(mk[i]); }
        c = c * 31 + res[i];
      }
      printf("%s warp %d active", k.name.c_str(), w);
      for (unsigned v : a) printf(" %08x", v);
      printf(" masks");
      for (unsigned v : m) printf(" %08x", v);
      printf(" result %lld\n", c);
    }
  }
  printf("DONE %zu kernels\n", ks.size());
  return 0;
}
