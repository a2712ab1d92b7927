// Warp-level primitives on data: keys grouped within a warp by __match_any_sync (each group's
// leader does one atomicAdd for the group: a warp-aggregated histogram with 4096 bins), a check
// that whole warps agree by __match_all_sync, __reduce_add/min/max/and/or/xor_sync over the active
// lanes of a divergent branch (__activemask), a butterfly (__shfl_xor_sync) bitonic sort of 32 keys
// a warp, and a radix select of each warp's k-th smallest key by ballots. Checked against the host.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__global__ void histMatch(const unsigned *keys, unsigned *hist, unsigned *groupsSeen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = keys[i] & 4095;
  unsigned peers = __match_any_sync(__activemask(), k);
  int leader = __ffs(peers) - 1;
  if ((threadIdx.x & 31) == leader) {
    atomicAdd(&hist[k], __popc(peers));
    atomicAdd(groupsSeen, 1u);
  }
}

// per warp: does every lane hold the same key (after masking to `bits` bits)?
__global__ void uniformWarps(const unsigned *keys, int *flags, int bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pred;
  unsigned k = keys[i] >> (32 - bits);
  unsigned m = __match_all_sync(0xffffffffu, k, &pred);
  if ((threadIdx.x & 31) == 0) flags[i / 32] = pred ? (int)(m == 0xffffffffu) : 0;
}

// reductions over the lanes whose key is odd (a divergent branch)
__global__ void reduceOdd(const unsigned *keys, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = keys[i];
  int w = i / 32;
  if (k & 1) {
    unsigned a = __activemask();
    unsigned v = k >> 8;
    unsigned s = __reduce_add_sync(a, v), mn = __reduce_min_sync(a, v), mx = __reduce_max_sync(a, v);
    unsigned an = __reduce_and_sync(a, k), o = __reduce_or_sync(a, k), x = __reduce_xor_sync(a, k);
    int sm = __reduce_min_sync(a, (int)(k ^ 0x80000000u));
    if ((threadIdx.x & 31) == __ffs(a) - 1) {
      unsigned *r = out + 8 * w;
      r[0] = s; r[1] = mn; r[2] = mx; r[3] = an; r[4] = o; r[5] = x; r[6] = (unsigned)sm; r[7] = __popc(a);
    }
  }
}

// each warp sorts its 32 keys by a bitonic network of shuffles, then finds its 11th smallest
// key by a most-significant-bit-first radix select with ballots
__global__ void warpSortSelect(const unsigned *keys, unsigned *sorted, unsigned *kth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  unsigned v = keys[i];
  for (int size = 2; size <= 32; size <<= 1) {
    for (int st = size >> 1; st > 0; st >>= 1) {
      unsigned o = __shfl_xor_sync(0xffffffffu, v, st);
      bool up = (lane & size) == 0;
      bool lower = (lane & st) == 0;
      v = (lower == up) ? min(v, o) : max(v, o);
    }
  }
  sorted[i] = v;
  // radix select on the original keys
  unsigned key = keys[i], prefix = 0, mask = 0;
  int k = 10;  // 0-based rank
  unsigned alive = 0xffffffffu;
  for (int b = 31; b >= 0; --b) {
    unsigned bit = 1u << b;
    bool mine = ((key & mask) == prefix);
    unsigned zeros = __ballot_sync(0xffffffffu, mine && !(key & bit));
    int nz = __popc(zeros);
    if (k < nz) { alive = zeros; } else { k -= nz; prefix |= bit; alive = __ballot_sync(0xffffffffu, mine && (key & bit)); }
    mask |= bit;
  }
  if (lane == 0) kth[i / 32] = prefix + (alive ? 0 : 1);
}

int main() {
  const int n = 1 << 19;
  std::vector<unsigned> h(n);
  unsigned s = 31337;
  for (int i = 0; i < n; ++i) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    // runs of equal keys in parts of the array (warps with few groups), random elsewhere
    h[i] = (i / 2048) % 3 == 0 ? (s & 0xff000000u) | ((i / 64) & 0xfff) : s;
    if ((i / 32) % 17 == 0) h[i] = 0xabc00000u | ((i / 32) & 0xfff);  // uniform warps
  }
  unsigned *dK, *dH, *dG, *dR, *dS, *dT; int *dF;
  CK(cudaMalloc(&dK, n * 4)); CK(cudaMalloc(&dH, 4096 * 4)); CK(cudaMalloc(&dG, 4));
  CK(cudaMalloc(&dR, n / 32 * 8 * 4)); CK(cudaMalloc(&dS, n * 4)); CK(cudaMalloc(&dT, n / 32 * 4)); CK(cudaMalloc(&dF, n / 32 * 4));
  CK(cudaMemcpy(dK, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dH, 0, 4096 * 4)); CK(cudaMemset(dG, 0, 4)); CK(cudaMemset(dR, 0, n / 32 * 8 * 4));
  bool ok = true;
  // n - 100 keys: the last warp partial
  histMatch<<<(n + 255) / 256, 256>>>(dK, dH, dG, n - 100);
  CK(cudaGetLastError());
  std::vector<unsigned> hist(4096);
  unsigned groups;
  CK(cudaMemcpy(hist.data(), dH, 4096 * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&groups, dG, 4, cudaMemcpyDeviceToHost));
  {
    std::vector<unsigned> e(4096, 0);
    unsigned eg = 0;
    for (int w = 0; w * 32 < n - 100; ++w) {
      std::vector<unsigned> seen;
      for (int l = 0; l < 32 && w * 32 + l < n - 100; ++l) {
        unsigned k = h[w * 32 + l] & 4095;
        e[k]++;
        if (std::find(seen.begin(), seen.end(), k) == seen.end()) seen.push_back(k);
      }
      eg += seen.size();
    }
    bool k = e == hist && eg == groups;
    unsigned long long c = 0;
    for (int b = 0; b < 4096; ++b) c = c * 7 + hist[b];
    printf("histMatch: %u groups (host %u), checksum %llx %s\n", groups, eg, c, k ? "ok" : "WRONG");
    ok &= k;
  }
  for (int bits = 8; bits <= 32; bits += 12) {
    uniformWarps<<<n / 128, 128>>>(dK, dF, bits);
    CK(cudaGetLastError());
    std::vector<int> f(n / 32);
    CK(cudaMemcpy(f.data(), dF, n / 32 * 4, cudaMemcpyDeviceToHost));
    int cnt = 0, bad = 0;
    for (int w = 0; w < n / 32; ++w) {
      bool u = true;
      for (int l = 1; l < 32; ++l) u &= (h[w * 32 + l] >> (32 - bits)) == (h[w * 32] >> (32 - bits));
      cnt += f[w];
      bad += f[w] != (int)u;
    }
    printf("uniformWarps(%d bits): %d uniform, %d wrong\n", bits, cnt, bad);
    ok &= bad == 0;
  }
  reduceOdd<<<n / 256, 256>>>(dK, dR);
  CK(cudaGetLastError());
  std::vector<unsigned> r(n / 32 * 8);
  CK(cudaMemcpy(r.data(), dR, r.size() * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    unsigned long long c = 0;
    for (int w = 0; w < n / 32; ++w) {
      unsigned e[8] = {0, 0xffffffffu, 0, 0xffffffffu, 0, 0, 0x7fffffffu, 0};
      int cnt = 0;
      for (int l = 0; l < 32; ++l) {
        unsigned k = h[w * 32 + l];
        if (!(k & 1)) continue;
        ++cnt;
        unsigned v = k >> 8;
        e[0] += v; e[1] = std::min(e[1], v); e[2] = std::max(e[2], v);
        e[3] &= k; e[4] |= k; e[5] ^= k;
        e[6] = (unsigned)std::min((int)e[6], (int)(k ^ 0x80000000u));
      }
      e[7] = cnt;
      if (cnt == 0) for (int q = 0; q < 8; ++q) e[q] = 0;
      for (int q = 0; q < 8; ++q) { bad += r[w * 8 + q] != e[q]; c = c * 3 + r[w * 8 + q]; }
    }
    printf("reduceOdd: %d wrong, checksum %llx\n", bad, c);
    ok &= bad == 0;
  }
  warpSortSelect<<<n / 512, 512>>>(dK, dS, dT);
  CK(cudaGetLastError());
  std::vector<unsigned> so(n), kt(n / 32);
  CK(cudaMemcpy(so.data(), dS, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(kt.data(), dT, n / 32 * 4, cudaMemcpyDeviceToHost));
  {
    int bad = 0;
    for (int w = 0; w < n / 32; ++w) {
      std::vector<unsigned> e(h.begin() + w * 32, h.begin() + w * 32 + 32);
      std::sort(e.begin(), e.end());
      for (int l = 0; l < 32; ++l) bad += so[w * 32 + l] != e[l];
      bad += kt[w] != e[10];
    }
    printf("warpSortSelect: %d wrong\n", bad);
    ok &= bad == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
