// Sparse matrix-vector products of one matrix in four formats: CSR with a thread per row
// (scalar), CSR with a warp per row reduced by __shfl_down_sync (vector), ELLPACK stored by
// columns with padded slots (-1), and jagged diagonals (JDS: rows sorted by length, a
// permutation, the diagonals' starts in constant memory). Row lengths vary from 0 to 80. The host
// checks every result.
#include <cstdio>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cstring>

#define MAXJD 96
__constant__ int jdStart[MAXJD + 1];

__global__ void csrScalar(const int* rowPtr, const int* col, const float* val, const float* x,
                          float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0.f;
    for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) s += val[k] * x[col[k]];
    y[r] = s;
  }
}

__global__ void csrVector(const int* rowPtr, const int* col, const float* val, const float* x,
                          float* y, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (warp >= n) return;
  int b = rowPtr[warp], e = rowPtr[warp + 1];
  float s = 0.f;
  for (int k = b + lane; k < e; k += 32) s += val[k] * __ldg(&x[col[k]]);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[warp] = s;
}

__global__ void ell(const int* col, const float* val, const float* x, float* y, int n, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float s = 0.f;
  for (int k = 0; k < width; k++) {
    int c = col[k * n + r];
    if (c >= 0) s += val[k * n + r] * x[c];
  }
  y[r] = s;
}

__global__ void jds(const int* perm, const int* rowLen, const int* col, const float* val,
                    const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int len = rowLen[i];
  float s = 0.f;
  for (int d = 0; d < len; d++) {
    int k = jdStart[d] + i;
    s += val[k] * x[col[k]];
  }
  y[perm[i]] = s;
}

static unsigned lcg = 777u;
static unsigned nxt() { lcg = lcg * 1103515245u + 12345u; return lcg >> 1; }

int main() {
  const int n = 3000;
  std::vector<int> rowPtr(n + 1), len(n);
  std::vector<int> col;
  std::vector<float> val;
  for (int r = 0; r < n; r++) {
    unsigned u = nxt() % 100;
    len[r] = u < 5 ? 0 : u < 80 ? 1 + nxt() % 12 : 13 + nxt() % 68;
  }
  for (int r = 0; r < n; r++) {
    rowPtr[r] = (int)col.size();
    std::vector<int> cs;
    while ((int)cs.size() < len[r]) {
      int c = nxt() % n;
      if (std::find(cs.begin(), cs.end(), c) == cs.end()) cs.push_back(c);
    }
    std::sort(cs.begin(), cs.end());
    for (int c : cs) { col.push_back(c); val.push_back((float)((int)(nxt() % 2001) - 1000) / 256.f); }
  }
  rowPtr[n] = (int)col.size();
  int nnz = rowPtr[n];
  std::vector<float> x(n);
  for (auto& v : x) v = (float)((int)(nxt() % 201) - 100) / 64.f;
  std::vector<double> want(n);
  for (int r = 0; r < n; r++) {
    double s = 0;
    for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) s += (double)val[k] * x[col[k]];
    want[r] = s;
  }
  int width = *std::max_element(len.begin(), len.end());
  std::vector<int> ecol((size_t)width * n, -1);
  std::vector<float> eval((size_t)width * n, 0.f);
  for (int r = 0; r < n; r++)
    for (int k = 0; k < len[r]; k++) { ecol[(size_t)k * n + r] = col[rowPtr[r] + k]; eval[(size_t)k * n + r] = val[rowPtr[r] + k]; }
  std::vector<int> perm(n);
  for (int i = 0; i < n; i++) perm[i] = i;
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return len[a] > len[b]; });
  std::vector<int> plen(n), start(MAXJD + 1, 0);
  for (int i = 0; i < n; i++) plen[i] = len[perm[i]];
  std::vector<int> jcol, dummy;
  std::vector<float> jval;
  for (int d = 0; d < width; d++) {
    start[d] = (int)jcol.size();
    for (int i = 0; i < n && plen[i] > d; i++) { jcol.push_back(col[rowPtr[perm[i]] + d]); jval.push_back(val[rowPtr[perm[i]] + d]); }
  }
  start[width] = (int)jcol.size();
  printf("spmv n %d nnz %d width %d\n", n, nnz, width);

  int *dRow, *dCol, *dEcol, *dPerm, *dLen, *dJcol;
  float *dVal, *dEval, *dJval, *dx, *dy;
  cudaMalloc(&dRow, (n + 1) * 4); cudaMalloc(&dCol, nnz * 4); cudaMalloc(&dVal, nnz * 4);
  cudaMalloc(&dEcol, ecol.size() * 4); cudaMalloc(&dEval, eval.size() * 4);
  cudaMalloc(&dPerm, n * 4); cudaMalloc(&dLen, n * 4); cudaMalloc(&dJcol, nnz * 4); cudaMalloc(&dJval, nnz * 4);
  cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4);
  cudaMemcpy(dRow, rowPtr.data(), (n + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dCol, col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dVal, val.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dEcol, ecol.data(), ecol.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dEval, eval.data(), eval.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dPerm, perm.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dLen, plen.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dJcol, jcol.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dJval, jval.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(jdStart, start.data(), (MAXJD + 1) * 4);
  int fails = 0;
  std::vector<float> y(n);
  for (int f = 0; f < 4; f++) {
    cudaMemset(dy, 0, n * 4);
    const char* name = "";
    if (f == 0) { name = "csrScalar"; csrScalar<<<(n + 127) / 128, 128>>>(dRow, dCol, dVal, dx, dy, n); }
    if (f == 1) { name = "csrVector"; csrVector<<<(n * 32 + 255) / 256, 256>>>(dRow, dCol, dVal, dx, dy, n); }
    if (f == 2) { name = "ell"; ell<<<(n + 191) / 192, 192>>>(dEcol, dEval, dx, dy, n, width); }
    if (f == 3) { name = "jds"; jds<<<(n + 63) / 64, 64>>>(dPerm, dLen, dJcol, dJval, dx, dy, n); }
    cudaMemcpy(y.data(), dy, n * 4, cudaMemcpyDeviceToHost);
    double sum = 0, err = 0;
    unsigned h = 0;
    for (int r = 0; r < n; r++) {
      sum += y[r];
      err = fmax(err, fabs(y[r] - want[r]));
      unsigned b; memcpy(&b, &y[r], 4); h = h * 31u + b;
    }
    printf("%-9s sum %.6f bits %08x %s\n", name, sum, h, err < 1e-3 ? "ok" : "BAD");
    fails += err >= 1e-3;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return 0;
}
