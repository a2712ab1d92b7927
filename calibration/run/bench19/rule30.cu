// Elementary cellular automata on bit-packed rings (32 cells a word): a launch a generation over a
// 2^19-cell ring of rule 30 in global memory (ping-pong buffers, the neighbours' edge bits by
// __funnelshift_l/r of the adjacent words, wrapped at the ends, each generation's live count by
// __popc, a __reduce_add_sync and one atomicAdd a warp); then 512 independent 1,024-cell rings
// of rule 110 a warp each, held in registers (a lane a word) for 300 generations, the edge words
// from the neighbouring lanes by __shfl_sync, a ring's live counts every 50 generations in shared
// memory. Checked against the host's cell-by-cell rule.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

// bit b of word w is cell 32 w + b; left neighbour is cell - 1
__device__ __forceinline__ unsigned rule30(unsigned l, unsigned c, unsigned r) { return l ^ (c | r); }
__device__ __forceinline__ unsigned rule110(unsigned l, unsigned c, unsigned r) { return (c ^ r) | (c & ~l); }

__global__ void step30(const unsigned *in, unsigned *out, int nw, unsigned *live) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = 0;
  if (i < nw) {
    const unsigned c = in[i], p = in[i == 0 ? nw - 1 : i - 1], q = in[i == nw - 1 ? 0 : i + 1];
    const unsigned L = __funnelshift_l(p, c, 1), R = __funnelshift_r(c, q, 1);
    const unsigned v = rule30(L, c, R);
    out[i] = v;
    n = __popc(v);
  }
  n = __reduce_add_sync(0xffffffffu, n);
  if ((threadIdx.x & 31) == 0 && n) atomicAdd(live, n);
}

__global__ void rings110(unsigned *rings, int nrings, int gens, unsigned *counts) {
  __shared__ unsigned cnt[4][8];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int ring = blockIdx.x * 4 + w;
  if (ring >= nrings) return;
  unsigned c = rings[ring * 32 + lane];
  int k = 0;
  for (int g = 1; g <= gens; ++g) {
    const unsigned p = __shfl_sync(0xffffffffu, c, (lane + 31) & 31);
    const unsigned q = __shfl_sync(0xffffffffu, c, (lane + 1) & 31);
    c = rule110(__funnelshift_l(p, c, 1), c, __funnelshift_r(c, q, 1));
    if (g % 50 == 0) {
      const unsigned n = __reduce_add_sync(0xffffffffu, __popc(c));
      if (lane == 0) cnt[w][k] = n;
      ++k;
    }
  }
  rings[ring * 32 + lane] = c;
  __syncwarp();
  if (lane < k) counts[ring * 8 + lane] = cnt[w][lane];
}

static void hostStep(std::vector<unsigned char> &a, int rule) {
  const int n = (int)a.size();
  std::vector<unsigned char> b(n);
  for (int i = 0; i < n; ++i) {
    int pat = (a[(i + n - 1) % n] << 2) | (a[i] << 1) | a[(i + 1) % n];
    b[i] = (rule >> pat) & 1;
  }
  a.swap(b);
}

int main() {
  int bad = 0;
  unsigned st = 3054u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  {
    const int nw = 1 << 14, gens = 24, ncell = nw * 32;
    std::vector<unsigned> w(nw, 0);
    w[nw / 2] = 1u << 16;   // a single seed
    for (int i = 0; i < 64; ++i) w[rnd() % nw] |= rnd();   // and random islands
    std::vector<unsigned char> cells(ncell);
    for (int i = 0; i < ncell; ++i) cells[i] = (w[i / 32] >> (i % 32)) & 1;
    unsigned *dA, *dB, *dL;
    CK(cudaMalloc(&dA, nw * 4)); CK(cudaMalloc(&dB, nw * 4)); CK(cudaMalloc(&dL, gens * 4));
    CK(cudaMemcpy(dA, w.data(), nw * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(dL, 0, gens * 4));
    for (int g = 0; g < gens; ++g) {
      step30<<<(nw + 255) / 256, 256>>>(g % 2 ? dB : dA, g % 2 ? dA : dB, nw, dL + g);
      CK(cudaGetLastError());
    }
    std::vector<unsigned> got(nw), live(gens);
    CK(cudaMemcpy(got.data(), gens % 2 ? dB : dA, nw * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(live.data(), dL, gens * 4, cudaMemcpyDeviceToHost));
    int wrong = 0;
    unsigned h = 2166136261u;
    for (int g = 0; g < gens; ++g) {
      hostStep(cells, 30);
      unsigned n = 0;
      for (int i = 0; i < ncell; ++i) n += cells[i];
      wrong += n != live[g];
    }
    for (int i = 0; i < ncell; ++i) wrong += cells[i] != ((got[i / 32] >> (i % 32)) & 1);
    for (int i = 0; i < nw; ++i) h = (h ^ got[i]) * 16777619u;
    printf("rule 30: %d cells, %d generations, live %u -> %u, hash %08x, wrong %d\n", ncell, gens, live[0], live[gens - 1], h, wrong);
    bad += wrong;
  }
  {
    const int nr = 512, gens = 300;
    std::vector<unsigned> r(nr * 32);
    for (int i = 0; i < nr * 32; ++i) {
      const int kind = (i / 32) % 4;
      r[i] = kind == 0 ? rnd() : kind == 1 ? (rnd() & rnd() & rnd()) : kind == 2 ? ((i % 32) == 5 ? 1u : 0u) : ~(rnd() & rnd());
    }
    unsigned *dR, *dC;
    CK(cudaMalloc(&dR, nr * 128)); CK(cudaMalloc(&dC, nr * 32));
    CK(cudaMemcpy(dR, r.data(), nr * 128, cudaMemcpyHostToDevice)); CK(cudaMemset(dC, 0, nr * 32));
    rings110<<<nr / 4, 128>>>(dR, nr, gens, dC);
    CK(cudaGetLastError());
    std::vector<unsigned> got(nr * 32), cnt(nr * 8);
    CK(cudaMemcpy(got.data(), dR, nr * 128, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cnt.data(), dC, nr * 32, cudaMemcpyDeviceToHost));
    int wrong = 0; unsigned h = 2166136261u, total = 0;
    for (int q = 0; q < nr; ++q) {
      std::vector<unsigned char> cells(1024);
      for (int i = 0; i < 1024; ++i) cells[i] = (r[q * 32 + i / 32] >> (i % 32)) & 1;
      for (int g = 1; g <= gens; ++g) {
        hostStep(cells, 110);
        if (g % 50 == 0) {
          unsigned n = 0;
          for (int i = 0; i < 1024; ++i) n += cells[i];
          wrong += n != cnt[q * 8 + g / 50 - 1];
        }
      }
      for (int i = 0; i < 1024; ++i) wrong += cells[i] != ((got[q * 32 + i / 32] >> (i % 32)) & 1);
      for (int k = 0; k < 6; ++k) total += cnt[q * 8 + k];
    }
    for (int i = 0; i < nr * 32; ++i) h = (h ^ got[i]) * 16777619u;
    printf("rule 110: %d rings of 1024 cells, %d generations, counted %u, hash %08x, wrong %d\n", nr, gens, total, h, wrong);
    bad += wrong;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
