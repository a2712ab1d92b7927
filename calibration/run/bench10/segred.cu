// Reductions by key: a COO sparse matrix-vector product (entries sorted by row, rows of 0 to 40
// entries) by a segmented reduction a warp of 32 entries: products, row heads found by comparing
// with the previous lane's row (`__shfl_up_sync`), a segmented inclusive scan by shuffles that
// stops at a head, each segment's last lane adding its sum to y by a global float atomicAdd only
// when the row runs past the warp (else a plain store); then run-length encoding of a byte stream
// (run heads by `__ballot_sync` against the previous byte, each head's output slot by `__popc`
// of the lower lanes plus a block offset from a shared scan of the warps' counts, run lengths from
// the next head's position by a second launch). The host checks y to a tolerance and every run.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void cooSpmv(const int *row, const int *col, const float *val, const float *x, float *y, int nnz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  bool live = i < nnz;
  int r = live ? row[i] : -1;
  float v = live ? val[i] * x[col[i]] : 0.f;
  int prev = __shfl_up_sync(0xffffffffu, r, 1);
  bool head = lane == 0 || prev != r;
  unsigned heads = __ballot_sync(0xffffffffu, head);
  int first = 31 - __clz(heads & ((2u << lane) - 1));
  for (int o = 1; o < 32; o <<= 1) {
    float u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane - o >= first) v += u;
  }
  int nextRow = __shfl_down_sync(0xffffffffu, r, 1);
  bool tailLane = lane == 31 || nextRow != r;
  if (live && tailLane) {
    bool whole = first > 0 && lane < 31;
    if (whole) y[r] = v; else atomicAdd(&y[r], v);
  }
}

__global__ void runHeads(const unsigned char *s, int n, int *headPos, int *blockCount) {
  __shared__ int warpCount[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  bool head = i < n && (i == 0 || s[i] != s[i - 1]);
  unsigned m = __ballot_sync(0xffffffffu, head);
  if (lane == 0) warpCount[w] = __popc(m);
  __syncthreads();
  if (threadIdx.x == 0) {
    int acc = 0;
    for (int k = 0; k < 8; ++k) { int c = warpCount[k]; warpCount[k] = acc; acc += c; }
    blockCount[blockIdx.x] = acc;
  }
  __syncthreads();
  if (head) headPos[blockIdx.x * blockDim.x + warpCount[w] + __popc(m & ((1u << lane) - 1))] = i;
}

__global__ void runEmit(const unsigned char *s, const int *headPos, const int *blockCount, const int *blockStart,
                        int n, int *outPos, unsigned char *outSym, int *outLen, int nruns) {
  int b = blockIdx.x, k = threadIdx.x;
  if (k >= blockCount[b]) return;
  int o = blockStart[b] + k, p = headPos[b * blockDim.x + k];
  int end = o + 1 < nruns ? (k + 1 < blockCount[b] ? headPos[b * blockDim.x + k + 1] : headPos[(b + 1) * blockDim.x]) : n;
  outPos[o] = p; outSym[o] = s[p]; outLen[o] = end - p;
}

int main() {
  const int nr = 6000, nc = 5000;
  std::vector<int> row, col; std::vector<float> val, x(nc);
  unsigned s = 8080u;
  for (int r = 0; r < nr; ++r) {
    s = s * 1664525u + 1013904223u;
    int len = (r % 17 == 0) ? 0 : (int)((s >> 10) % 41);
    for (int k = 0; k < len; ++k) {
      s = s * 1664525u + 1013904223u;
      row.push_back(r); col.push_back((int)((s >> 9) % nc)); val.push_back(((s >> 4) & 1023) / 512.f - 1.f);
    }
  }
  for (int c = 0; c < nc; ++c) x[c] = (c % 13) * 0.25f - 1.5f;
  int nnz = (int)row.size();
  int *drow, *dcol; float *dval, *dx, *dy;
  CK(cudaMalloc(&drow, nnz * 4)); CK(cudaMalloc(&dcol, nnz * 4)); CK(cudaMalloc(&dval, nnz * 4));
  CK(cudaMalloc(&dx, nc * 4)); CK(cudaMalloc(&dy, nr * 4));
  CK(cudaMemcpy(drow, row.data(), nnz * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, col.data(), nnz * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dval, val.data(), nnz * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dx, x.data(), nc * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dy, 0, nr * 4));
  cooSpmv<<<(nnz + 255) / 256, 256>>>(drow, dcol, dval, dx, dy, nnz);
  CK(cudaGetLastError());
  std::vector<float> y(nr);
  CK(cudaMemcpy(y.data(), dy, nr * 4, cudaMemcpyDeviceToHost));
  std::vector<double> wy(nr, 0.0);
  for (int k = 0; k < nnz; ++k) wy[row[k]] += (double)val[k] * x[col[k]];
  int bad = 0; double ysum = 0;
  for (int r = 0; r < nr; ++r) { bad += !(fabs(y[r] - wy[r]) < 1e-3 * (1 + fabs(wy[r]))); ysum += y[r]; }
  printf("segred coo: %d rows, %d entries, y sum %.4f, %d bad\n", nr, nnz, ysum, bad);
  const int n = 200000, bs = 256, nb = (n + bs - 1) / bs;
  std::vector<unsigned char> str(n);
  unsigned char c = 0;
  for (int i = 0; i < n;) {
    s = s * 1664525u + 1013904223u;
    int len = 1 + (int)((s >> 8) % ((s >> 20) % 3 == 0 ? 200 : 6));
    c = (unsigned char)(c + 1 + ((s >> 3) % 5));
    for (int k = 0; k < len && i < n; ++k) str[i++] = c;
  }
  unsigned char *ds, *dsym; int *dhp, *dbc, *dbs, *dpos, *dlen;
  CK(cudaMalloc(&ds, n)); CK(cudaMalloc(&dhp, (nb + 1) * bs * 4)); CK(cudaMalloc(&dbc, nb * 4)); CK(cudaMalloc(&dbs, nb * 4));
  CK(cudaMemcpy(ds, str.data(), n, cudaMemcpyHostToDevice));
  runHeads<<<nb, bs>>>(ds, n, dhp, dbc);
  CK(cudaGetLastError());
  std::vector<int> bc(nb), bst(nb);
  CK(cudaMemcpy(bc.data(), dbc, nb * 4, cudaMemcpyDeviceToHost));
  int nruns = 0;
  for (int b = 0; b < nb; ++b) { bst[b] = nruns; nruns += bc[b]; }
  // the next block's first head is at position 0 of its slots; a block without heads would need a
  // search, which this stream (runs of at most 200 bytes, blocks of 256) never has
  CK(cudaMemcpy(dbs, bst.data(), nb * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&dpos, nruns * 4)); CK(cudaMalloc(&dsym, nruns)); CK(cudaMalloc(&dlen, nruns * 4));
  runEmit<<<nb, bs>>>(ds, dhp, dbc, dbs, n, dpos, dsym, dlen, nruns);
  CK(cudaGetLastError());
  std::vector<int> pos(nruns), len(nruns); std::vector<unsigned char> sym(nruns);
  CK(cudaMemcpy(pos.data(), dpos, nruns * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(len.data(), dlen, nruns * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sym.data(), dsym, nruns, cudaMemcpyDeviceToHost));
  int b2 = 0, k = 0; long long lsum = 0;
  for (int i = 0; i < n; ++k) {
    int j = i; while (j < n && str[j] == str[i]) ++j;
    if (k >= nruns) { ++b2; break; }
    b2 += pos[k] != i || len[k] != j - i || sym[k] != str[i];
    lsum += (long long)len[k] * (k % 5 + 1);
    i = j;
  }
  b2 += k != nruns;
  printf("segred rle: %d bytes, %d runs, weighted length sum %lld, %d bad\n", n, nruns, lsum, b2);
  bad += b2;
  printf("segred %s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
