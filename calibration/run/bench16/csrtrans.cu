// CSR transpose and transposed products: column counts by global atomicAdd (a thread a row, rows of
// 0 to 63 entries, hot columns), a three-launch exclusive scan (a block scan of 1,024 counts in
// shared memory by Hillis-Steele with double buffering, a one-block scan of the block totals, an
// add-back), a scatter into the column slots by atomicAdd (order from the GPU's timing), each
// column's entries sorted by row (insertion sort a thread a column, in global memory), then
// y = A^T x a thread a column in 64-bit integers and z = A y a warp a row with __shfl_xor_sync.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>

__global__ void countCols(const int *rowPtr, const int *col, int rows, int *cnt) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) atomicAdd(&cnt[col[k]], 1);
}

__global__ void scanBlocks(const int *in, int *out, int n, int *sums) {
  __shared__ int buf[2][1024];
  int i = blockIdx.x * 1024 + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int p = 0;
  buf[0][threadIdx.x] = v;
  __syncthreads();
  for (int d = 1; d < 1024; d <<= 1) {
    int t = buf[p][threadIdx.x];
    if (threadIdx.x >= d) t += buf[p][threadIdx.x - d];
    buf[p ^ 1][threadIdx.x] = t;
    p ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[p][threadIdx.x] - v;
  if (threadIdx.x == 1023) sums[blockIdx.x] = buf[p][1023];
}

__global__ void scanSums(int *sums, int nb) {
  __shared__ int s[1024];
  int v = threadIdx.x < nb ? sums[threadIdx.x] : 0;
  s[threadIdx.x] = v;
  __syncthreads();
  for (int d = 1; d < 1024; d <<= 1) {
    int t = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
    __syncthreads();
    s[threadIdx.x] += t;
    __syncthreads();
  }
  if (threadIdx.x < nb) sums[threadIdx.x] = s[threadIdx.x] - v;
}

__global__ void addBack(int *out, int n, const int *sums, int *fill) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = out[i] + sums[i / 1024];
  out[i] = v;
  fill[i] = v;
}

__global__ void scatter(const int *rowPtr, const int *col, const int *val, int rows, int *fill, int *rowIdx, int *valT) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) {
    int slot = atomicAdd(&fill[col[k]], 1);
    rowIdx[slot] = r;
    valT[slot] = val[k];
  }
}

__global__ void sortCols(const int *colPtr, int cols, int *rowIdx, int *valT) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int b = colPtr[c], e = colPtr[c + 1];
  for (int k = b + 1; k < e; k++) {
    int r = rowIdx[k], v = valT[k], j = k - 1;
    while (j >= b && rowIdx[j] > r) { rowIdx[j + 1] = rowIdx[j]; valT[j + 1] = valT[j]; j--; }
    rowIdx[j + 1] = r; valT[j + 1] = v;
  }
}

__global__ void spmvT(const int *colPtr, const int *rowIdx, const int *valT, int cols, const int *x, long long *y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  long long s = 0;
  for (int k = colPtr[c]; k < colPtr[c + 1]; k++) s += (long long)valT[k] * x[rowIdx[k]];
  y[c] = s;
}

__global__ void spmvWarp(const int *rowPtr, const int *col, const int *val, int rows, const long long *y, long long *z) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  long long s = 0;
  for (int k = rowPtr[r] + lane; k < rowPtr[r + 1]; k += 32) s += val[k] * y[col[k]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) z[r] = s;
}

static uint32_t rng(uint32_t &s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 120000, cols = rows * 3 / 4;
  uint32_t s = 99;
  std::vector<int> rowPtr(rows + 1), col, val;
  rowPtr[0] = 0;
  for (int r = 0; r < rows; r++) {
    int len = (rng(s) % 8 == 0) ? rng(s) % 64 : rng(s) % 12;
    std::vector<char> used(0);
    for (int k = 0; k < len; k++) {
      int c = (rng(s) % 20 == 0) ? rng(s) % 256 : rng(s) % cols;  // a twentieth to 256 hot columns
      bool dup = false;
      for (int q = rowPtr[r]; q < (int)col.size(); q++) dup |= col[q] == c;
      if (dup) continue;
      col.push_back(c);
      val.push_back((int)(rng(s) % 201) - 100);
    }
    rowPtr[r + 1] = (int)col.size();
  }
  int nnz = rowPtr[rows];
  std::vector<int> x(rows);
  for (auto &v : x) v = (int)(rng(s) % 2001) - 1000;
  // host transpose (rows ascending within a column by construction)
  std::vector<int> cp(cols + 1, 0), ri(nnz), vt(nnz);
  for (int k = 0; k < nnz; k++) cp[col[k] + 1]++;
  for (int c = 0; c < cols; c++) cp[c + 1] += cp[c];
  {
    std::vector<int> f(cp.begin(), cp.end() - 1);
    for (int r = 0; r < rows; r++)
      for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) { int slot = f[col[k]]++; ri[slot] = r; vt[slot] = val[k]; }
  }
  std::vector<long long> hy(cols, 0), hz(rows, 0);
  for (int c = 0; c < cols; c++)
    for (int k = cp[c]; k < cp[c + 1]; k++) hy[c] += (long long)vt[k] * x[ri[k]];
  for (int r = 0; r < rows; r++)
    for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) hz[r] += val[k] * hy[col[k]];

  int *dRp, *dCol, *dVal, *dCnt, *dCp, *dSums, *dFill, *dRi, *dVt, *dX;
  long long *dY, *dZ;
  int nb = (cols + 1023) / 1024;
  cudaMalloc(&dRp, (rows + 1) * 4); cudaMalloc(&dCol, nnz * 4); cudaMalloc(&dVal, nnz * 4);
  cudaMalloc(&dCnt, (cols + 1) * 4); cudaMalloc(&dCp, (cols + 1) * 4); cudaMalloc(&dSums, nb * 4);
  cudaMalloc(&dFill, (cols + 1) * 4); cudaMalloc(&dRi, nnz * 4); cudaMalloc(&dVt, nnz * 4);
  cudaMalloc(&dX, rows * 4); cudaMalloc(&dY, cols * 8); cudaMalloc(&dZ, rows * 8);
  cudaMemcpy(dRp, rowPtr.data(), (rows + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dCol, col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dVal, val.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dX, x.data(), rows * 4, cudaMemcpyHostToDevice);
  cudaMemset(dCnt, 0, (cols + 1) * 4);
  countCols<<<(rows + 127) / 128, 128>>>(dRp, dCol, rows, dCnt);
  scanBlocks<<<(cols + 1 + 1023) / 1024, 1024>>>(dCnt, dCp, cols + 1, dSums);
  scanSums<<<1, 1024>>>(dSums, (cols + 1 + 1023) / 1024);
  addBack<<<(cols + 1 + 255) / 256, 256>>>(dCp, cols + 1, dSums, dFill);
  scatter<<<(rows + 127) / 128, 128>>>(dRp, dCol, dVal, rows, dFill, dRi, dVt);
  sortCols<<<(cols + 127) / 128, 128>>>(dCp, cols, dRi, dVt);
  spmvT<<<(cols + 127) / 128, 128>>>(dCp, dRi, dVt, cols, dX, dY);
  spmvWarp<<<(rows * 32 + 255) / 256, 256>>>(dRp, dCol, dVal, rows, dY, dZ);
  std::vector<int> gcp(cols + 1), gri(nnz), gvt(nnz);
  std::vector<long long> gy(cols), gz(rows);
  cudaMemcpy(gcp.data(), dCp, (cols + 1) * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gri.data(), dRi, nnz * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gvt.data(), dVt, nnz * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gy.data(), dY, cols * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(gz.data(), dZ, rows * 8, cudaMemcpyDeviceToHost);
  int badP = 0, badE = 0, badY = 0, badZ = 0;
  for (int c = 0; c <= cols; c++) badP += gcp[c] != cp[c];
  for (int k = 0; k < nnz; k++) badE += gri[k] != ri[k] || gvt[k] != vt[k];
  long long ys = 0, zs = 0;
  for (int c = 0; c < cols; c++) { badY += gy[c] != hy[c]; ys += gy[c] * (c % 7 + 1); }
  for (int r = 0; r < rows; r++) { badZ += gz[r] != hz[r]; zs ^= gz[r] * (r + 1); }
  int maxc = 0;
  for (int c = 0; c < cols; c++) maxc = std::max(maxc, cp[c + 1] - cp[c]);
  printf("%d x %d, %d entries, longest column %d\n", rows, cols, nnz, maxc);
  printf("column starts %d differ, entries %d, y %d (sum %lld), z %d (xor %llx)\n", badP, badE, badY, ys, badZ, (unsigned long long)zs);
  bool ok = badP + badE + badY + badZ == 0;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); ok = false; }
  printf("csrtrans: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
