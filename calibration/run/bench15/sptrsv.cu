// Sparse lower-triangular solve L x = b in double by level sets: the host computes each row's
// level (one more than the deepest row it depends on), orders the rows level by level, and the
// device solves one level per launch, first a thread a row (a data-dependent loop over the row's
// entries, a division by the diagonal), then a warp a row (lanes stride the entries, a
// __shfl_down_sync sum of doubles, lane 0 divides). Both solutions are checked against the
// host's forward substitution. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

// rowPtr/col/val hold the strictly lower part; diag the diagonal.
__global__ void levelThread(const int *rows, int count, const int *rowPtr, const int *col,
                            const double *val, const double *diag, const double *b, double *x) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  int r = rows[k];
  double s = b[r];
  for (int e = rowPtr[r]; e < rowPtr[r + 1]; e++) s -= val[e] * x[col[e]];
  x[r] = s / diag[r];
}

__global__ void levelWarp(const int *rows, int count, const int *rowPtr, const int *col,
                          const double *val, const double *diag, const double *b, double *x) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= count) return;
  int r = rows[w];
  double s = 0.0;
  for (int e = rowPtr[r] + lane; e < rowPtr[r + 1]; e += 32) s += val[e] * x[col[e]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) x[r] = (b[r] - s) / diag[r];
}

static unsigned rnd(unsigned &s) { s = s * 1664525u + 1013904223u; return s >> 8; }

int main() {
  const int N = 12000, BANDS = 36;
  unsigned seed = 2024;
  std::vector<int> rowPtr(N + 1, 0), col;
  std::vector<double> val, diag(N), b(N);
  for (int i = 0; i < N; i++) {
    int band = (int)((long long)i * BANDS / N), start = (int)((long long)band * N / BANDS);
    int deps = start == 0 ? 0 : 1 + rnd(seed) % ((i % 23 == 0) ? 70 : 6);  // some long rows
    std::vector<int> cs;
    for (int d = 0; d < deps; d++) cs.push_back(rnd(seed) % start);
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    for (int c : cs) { col.push_back(c); val.push_back(((int)(rnd(seed) % 2001) - 1000) / 4000.0); }
    rowPtr[i + 1] = (int)col.size();
    diag[i] = 1.5 + (rnd(seed) % 100) / 50.0;
    b[i] = ((int)(rnd(seed) % 2001) - 1000) / 100.0;
  }
  std::vector<int> level(N, 0);
  int depth = 0;
  for (int i = 0; i < N; i++) {
    for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) level[i] = std::max(level[i], level[col[e]] + 1);
    depth = std::max(depth, level[i] + 1);
  }
  std::vector<int> levPtr(depth + 1, 0), order(N);
  for (int i = 0; i < N; i++) levPtr[level[i] + 1]++;
  for (int l = 0; l < depth; l++) levPtr[l + 1] += levPtr[l];
  std::vector<int> fill(levPtr.begin(), levPtr.end() - 1);
  for (int i = 0; i < N; i++) order[fill[level[i]]++] = i;
  std::vector<double> ref(N);
  for (int i = 0; i < N; i++) {
    double s = b[i];
    for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) s -= val[e] * ref[col[e]];
    ref[i] = s / diag[i];
  }
  int nnz = (int)col.size();
  int *dRows, *dPtr, *dCol; double *dVal, *dDiag, *dB, *dX;
  CK(cudaMalloc(&dRows, N * sizeof(int))); CK(cudaMalloc(&dPtr, (N + 1) * sizeof(int)));
  CK(cudaMalloc(&dCol, nnz * sizeof(int))); CK(cudaMalloc(&dVal, nnz * sizeof(double)));
  CK(cudaMalloc(&dDiag, N * sizeof(double))); CK(cudaMalloc(&dB, N * sizeof(double)));
  CK(cudaMalloc(&dX, N * sizeof(double)));
  CK(cudaMemcpy(dRows, order.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dPtr, rowPtr.data(), (N + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dCol, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dVal, val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dDiag, diag.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, b.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int variant = 0; variant < 2; variant++) {
    CK(cudaMemset(dX, 0xff, N * sizeof(double)));
    for (int l = 0; l < depth; l++) {
      int count = levPtr[l + 1] - levPtr[l];
      if (variant == 0)
        levelThread<<<(count + 127) / 128, 128>>>(dRows + levPtr[l], count, dPtr, dCol, dVal, dDiag, dB, dX);
      else
        levelWarp<<<(count * 32 + 255) / 256, 256>>>(dRows + levPtr[l], count, dPtr, dCol, dVal, dDiag, dB, dX);
      CK(cudaGetLastError());
    }
    std::vector<double> x(N);
    CK(cudaMemcpy(x.data(), dX, N * sizeof(double), cudaMemcpyDeviceToHost));
    double worst = 0, sum = 0;
    for (int i = 0; i < N; i++) {
      worst = std::max(worst, fabs(x[i] - ref[i]) / (1.0 + fabs(ref[i])));
      sum += x[i];
    }
    printf("%s: %d rows, %d entries, %d levels, sum %.9e, worst relative error %s\n",
           variant ? "warp a row" : "thread a row", N, nnz, depth, sum, worst < 1e-9 ? "below 1e-9" : "TOO LARGE");
    ok = ok && worst < 1e-9;
  }
  printf("sptrsv: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
