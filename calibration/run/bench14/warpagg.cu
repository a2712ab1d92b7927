// Warp-level collectives on data: keys grouped by __match_any_sync (each group's leader makes one
// atomicAdd for its group), per-warp statistics by __reduce_add_sync/__reduce_max_sync/
// __reduce_min_sync/__reduce_or_sync, the k-th set lane of a ballot found by __fns, block-scope
// atomics (atomicAdd_block, atomicMax_block) into shared-free global counters of each block, an
// error flag raised by atomicOr when an invariant fails (no assert), and a device printf of one
// block's summary. Checked against the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__global__ void groupCount(const unsigned *key, int n, unsigned *bins, unsigned *leaders, unsigned *errFlag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // n is a multiple of 32: whole warps leave
  unsigned k = key[i];
  unsigned peers = __match_any_sync(0xffffffffu, k);
  int lane = threadIdx.x & 31;
  int leader = __ffs(peers) - 1;
  if (lane == leader) { atomicAdd(&bins[k], __popc(peers)); atomicAdd(leaders, 1u); }
  int all = 0;
  unsigned same = __match_all_sync(0xffffffffu, k >> 10, &all);  // the full mask: keys are below 1024
  if (same != 0xffffffffu || !all) atomicOr(errFlag, 1u);
}
__global__ void warpStats(const unsigned *v, int n, unsigned *sum, unsigned *mx, unsigned *mn, unsigned *orv,
                          int *fifthOdd, unsigned *blockMax, unsigned *errFlag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = i < n ? v[i] : 0u;
  unsigned s = __reduce_add_sync(0xffffffffu, x);
  unsigned hi = __reduce_max_sync(0xffffffffu, x);
  unsigned lo = __reduce_min_sync(0xffffffffu, x);
  unsigned o = __reduce_or_sync(0xffffffffu, x & 0xff);
  unsigned odd = __ballot_sync(0xffffffffu, x & 1);
  int w = i >> 5, lane = threadIdx.x & 31;
  if (lane == 0) {
    sum[w] = s; mx[w] = hi; mn[w] = lo; orv[w] = o;
    fifthOdd[w] = __popc(odd) >= 5 ? (int)__fns(odd, 0, 5) : -1;
    atomicMax_block(&blockMax[blockIdx.x], hi);
    atomicAdd_block(&blockMax[gridDim.x + blockIdx.x], s & 0xffff);
    if (lo > hi) atomicOr(errFlag, 2u);
  }
  if (blockIdx.x == 3 && threadIdx.x == 0)
    printf("block %d warp 0: sum %u max %u min %u or %02x odd lanes %08x\n", blockIdx.x, s, hi, lo, o, odd);
}

int main() {
  const int N = 1 << 20, W = N / 32, B = 256, G = N / B;
  std::vector<unsigned> key(N), val(N);
  for (int i = 0; i < N; i++) {
    key[i] = ((i / 7) % 3 == 0) ? (unsigned)(i >> 10) & 1023 : ((unsigned)i * 2654435761u >> 22);
    val[i] = ((unsigned)i * 40503u) % 100000u;
  }
  unsigned *dk, *dv, *dbins, *dlead, *derr, *dsum, *dmx, *dmn, *dor, *dbm; int *dfifth;
  CK(cudaMalloc(&dk, N * 4)); CK(cudaMalloc(&dv, N * 4));
  CK(cudaMalloc(&dbins, 1024 * 4)); CK(cudaMalloc(&dlead, 4)); CK(cudaMalloc(&derr, 4));
  CK(cudaMalloc(&dsum, W * 4)); CK(cudaMalloc(&dmx, W * 4)); CK(cudaMalloc(&dmn, W * 4)); CK(cudaMalloc(&dor, W * 4));
  CK(cudaMalloc(&dfifth, W * 4)); CK(cudaMalloc(&dbm, 2 * G * 4));
  CK(cudaMemcpy(dk, key.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, val.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dbins, 0, 1024 * 4)); CK(cudaMemset(dlead, 0, 4)); CK(cudaMemset(derr, 0, 4)); CK(cudaMemset(dbm, 0, 2 * G * 4));
  groupCount<<<G, B>>>(dk, N, dbins, dlead, derr);
  CK(cudaGetLastError());
  warpStats<<<G, B>>>(dv, N, dsum, dmx, dmn, dor, dfifth, dbm, derr);
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> bins(1024), sum(W), mx(W), mn(W), orv(W), bm(2 * G); std::vector<int> fifth(W);
  unsigned lead, err;
  CK(cudaMemcpy(bins.data(), dbins, 1024 * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&lead, dlead, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&err, derr, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sum.data(), dsum, W * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(mx.data(), dmx, W * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(mn.data(), dmn, W * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(orv.data(), dor, W * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(fifth.data(), dfifth, W * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(bm.data(), dbm, 2 * G * 4, cudaMemcpyDeviceToHost));
  bool ok = err == 0; int bad = 0;
  std::vector<unsigned> wb(1024, 0); unsigned wl = 0;
  for (int w = 0; w < W; w++) {
    std::vector<unsigned> seen;
    unsigned s = 0, hi = 0, lo = ~0u, o = 0, odd = 0;
    for (int l = 0; l < 32; l++) {
      unsigned k = key[w * 32 + l]; wb[k]++;
      bool first = true; for (unsigned q : seen) if (q == k) first = false;
      if (first) { seen.push_back(k); wl++; }
      unsigned x = val[w * 32 + l];
      s += x; hi = x > hi ? x : hi; lo = x < lo ? x : lo; o |= x & 0xff; if (x & 1) odd |= 1u << l;
    }
    int f = -1, c = 0; for (int l = 0; l < 32; l++) if (odd >> l & 1) { if (++c == 5) { f = l; break; } }
    if ((sum[w] != s || mx[w] != hi || mn[w] != lo || orv[w] != o || fifth[w] != f) && bad++ < 5)
      printf("warp %d: %u %u %u %u %d want %u %u %u %u %d\n", w, sum[w], mx[w], mn[w], orv[w], fifth[w], s, hi, lo, o, f);
  }
  for (int b = 0; b < G; b++) {
    unsigned hi = 0, lo16 = 0;
    for (int w = b * 8; w < b * 8 + 8; w++) { hi = mx[w] > hi ? mx[w] : hi; lo16 += sum[w] & 0xffff; }
    if ((bm[b] != hi || bm[G + b] != lo16) && bad++ < 5) printf("block %d: %u %u want %u %u\n", b, bm[b], bm[G + b], hi, lo16);
  }
  for (int k = 0; k < 1024; k++) if (bins[k] != wb[k] && bad++ < 5) printf("bin %d got %u want %u\n", k, bins[k], wb[k]);
  if (lead != wl) { printf("leaders %u want %u\n", lead, wl); ok = false; }
  ok = ok && bad == 0;
  unsigned long long check = 0; for (int w = 0; w < W; w++) check += sum[w] ^ (unsigned)fifth[w];
  printf("leaders %u, error flag %u, checksum %llu\n", lead, err, check);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
