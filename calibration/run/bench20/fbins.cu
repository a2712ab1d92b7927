// Float division with the compiler's operand check (ptxas tests each quotient's operands with
// FCHK and calls a slow path for subnormal, huge or tiny ones): warps of ordinary operands, warps
// with a few odd lanes, warps of odd operands. The quotients go to shared memory; after a barrier
// each thread reads a neighbour's quotient and halves it until it is below 1 (a loop whose trip
// count is read from shared memory), bins the count with a shared atomicAdd and, when the bin it
// hit was empty in its warp's view (the atomic's old value below a run-time bound), adds to a
// second count. Block bins go out by a global atomicAdd. The first four warps of the grid to
// arrive (a ticket by atomicAdd, one a warp) sum one extra row each. Checked against the host:
// quotients bit for bit, halving counts, bins and the tickets' total.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)

#define NB 48

__global__ void divBins(const float *a, const float *b, float *q, int *halv, unsigned *bins, unsigned *under,
                        unsigned *ticket, float *extra, const float *row, int bound) {
  __shared__ float sq[256];
  __shared__ unsigned sb[NB];
  __shared__ unsigned sunder;
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (t < NB) sb[t] = 0;
  if (t == 0) sunder = 0;
  const float v = a[i] / b[i];
  q[i] = v;
  sq[t] = v;
  __syncthreads();
  float x = fabsf(sq[(t * 37 + 11) & 255]);
  int c = 0;
  if (x == x) {   // NaN never halves below 1
    while (x >= 1.0f && c < NB - 1) { x *= 0.5f; ++c; }
  } else {
    c = NB - 1;
  }
  halv[i] = c;
  const unsigned old = atomicAdd(&sb[c], 1u);
  if (old < (unsigned)bound) atomicAdd(&sunder, 1u);
  __syncthreads();
  if (t < NB && sb[t] != 0) atomicAdd(&bins[t], sb[t]);
  if (t == 0) atomicAdd(under, sunder);
  unsigned tk = 0;
  if ((t & 31) == 0) tk = atomicAdd(ticket, 1u);
  tk = __shfl_sync(0xffffffffu, tk, 0);
  if (tk < 4) {
    float s = 0.f;
    for (int j = t & 31; j < 1024; j += 32) s += row[j];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((t & 31) == 0) extra[tk] = s;
  }
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main() {
  const int blocks = 40, n = blocks * 256;
  std::vector<float> a(n), b(n), row(1024);
  unsigned st = 2463534242u;
  auto rnd = [&]() { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; };
  const float odd[6] = {1e-40f, 3e38f, 1.2e-38f, 7e-45f, 1e30f, 2e-30f};
  for (int i = 0; i < n; ++i) {
    const int w = i / 32, lane = i % 32;
    a[i] = ldexpf(1.0f + (rnd() % 4096) / 4096.0f, (int)(rnd() % 40) - 8) * ((rnd() & 1) ? 1.f : -1.f);
    b[i] = ldexpf(1.0f + (rnd() % 4096) / 4096.0f, (int)(rnd() % 12) - 6);
    const int kind = w % 5;   // 0, 3: ordinary; 1: two odd lanes; 2: all odd; 4: odd lanes one in three
    bool oa = false, ob = false;
    if (kind == 1 && (lane == w % 32 || lane == (w * 5 + 3) % 32)) { oa = lane % 2; ob = !oa; }
    if (kind == 2) { oa = lane % 2 == 0; ob = lane % 3 == 0; }
    if (kind == 4 && lane % 3 == 1) ob = true;
    if (oa) a[i] = odd[rnd() % 6];
    if (ob) b[i] = odd[rnd() % 6];
  }
  a[77] = 0.f; b[77] = 0.f;   // NaN
  for (int j = 0; j < 1024; ++j) row[j] = (rnd() % 1000) / 8.0f;
  float *da, *db, *dq, *dextra, *drow; int *dh; unsigned *dbins, *dunder, *dticket;
  CK(cudaMalloc(&da, n * 4)); CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&dq, n * 4)); CK(cudaMalloc(&dh, n * 4));
  CK(cudaMalloc(&dbins, NB * 4)); CK(cudaMalloc(&dunder, 4)); CK(cudaMalloc(&dticket, 4));
  CK(cudaMalloc(&dextra, 4 * 4)); CK(cudaMalloc(&drow, 1024 * 4));
  CK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(drow, row.data(), 1024 * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dbins, 0, NB * 4)); CK(cudaMemset(dunder, 0, 4)); CK(cudaMemset(dticket, 0, 4));
  divBins<<<blocks, 256>>>(da, db, dq, dh, dbins, dunder, dticket, dextra, drow, 1000);
  CK(cudaGetLastError());
  std::vector<float> q(n), extra(4); std::vector<int> h(n); std::vector<unsigned> bins(NB); unsigned under = 0, ticket = 0;
  CK(cudaMemcpy(q.data(), dq, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h.data(), dh, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(bins.data(), dbins, NB * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&under, dunder, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&ticket, dticket, 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(extra.data(), dextra, 16, cudaMemcpyDeviceToHost));
  int bad = 0; std::vector<unsigned> eb(NB, 0); uint32_t qh = 0; long long hs = 0; int slow = 0;
  for (int i = 0; i < n; ++i) {
    const float e = a[i] / b[i];
    if (bits(e) != bits(q[i]) && !(std::isnan(e) && std::isnan(q[i]))) { if (bad < 5) printf("q %d: %a/%a got %a want %a\n", i, a[i], b[i], q[i], e); ++bad; }
    if (fpclassify(a[i]) == FP_SUBNORMAL || fpclassify(b[i]) == FP_SUBNORMAL || fabsf(a[i]) > 1e29f || fabsf(b[i]) > 1e29f || fabsf(b[i]) < 1e-29f) ++slow;
    const int blk = i / 256, t = i % 256;
    const float qs = a[blk * 256 + ((t * 37 + 11) & 255)] / b[blk * 256 + ((t * 37 + 11) & 255)];
    float x = fabsf(qs); int c = 0;
    if (x == x) { while (x >= 1.0f && c < NB - 1) { x *= 0.5f; ++c; } } else c = NB - 1;
    if (c != h[i]) ++bad;
    eb[c]++;
    qh = qh * 16777619u ^ (std::isnan(q[i]) ? 1u : bits(q[i]));
    hs += h[i];
  }
  for (int k = 0; k < NB; ++k) if (eb[k] != bins[k]) ++bad;
  float rs = 0.f;
  for (int j = 0; j < 1024; ++j) rs += row[j];
  int badExtra = 0;
  for (int k = 0; k < 4; ++k) if (fabsf(extra[k] - rs) > 1e-3f * rs) ++badExtra;
  // every block's under-count: threads whose bin held fewer than 1000 before them (all of them)
  printf("quotients: %d differ, %d with an odd operand, hash %08x, halvings %lld\n", bad, slow, qh, hs);
  printf("bins:");
  for (int k = 0; k < NB; ++k) if (bins[k]) printf(" %d:%u", k, bins[k]);
  printf("\nunder %u, tickets %u, extra %.3f %.3f %.3f %.3f\n", under, ticket, extra[0], extra[1], extra[2], extra[3]);
  const bool ok = bad == 0 && badExtra == 0 && under == (unsigned)n && ticket == (unsigned)(n / 32);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
