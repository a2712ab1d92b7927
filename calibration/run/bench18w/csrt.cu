// A CSR matrix transposed on the GPU: column counts by atomicAdd while each thread walks its row
// (the row's end, rowptr[r + 1], re-read after every atomic), a one-block exclusive scan of the
// counts, then a scatter whose slots come from atomicAdd on per-column cursors. The transposed
// matrix is checked per column against the host (order inside a column is the GPU's, so the
// check and the printed sums do not depend on it). Last, the counts once more with the row
// offsets and the counts in one workspace allocation.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void countCols(const int *rowptr, const int *col, int nrows, int *cnt) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += gridDim.x * blockDim.x)
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) atomicAdd(&cnt[col[j]], 1);
}

__global__ void scanCounts(const int *cnt, int n, int *start, int *cursor) {
  __shared__ int part[1024];
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int base = 0; base < n; base += blockDim.x) {
    int i = base + threadIdx.x;
    int v = i < n ? cnt[i] : 0;
    part[threadIdx.x] = v;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
      int t = threadIdx.x >= off ? part[threadIdx.x - off] : 0;
      __syncthreads();
      part[threadIdx.x] += t;
      __syncthreads();
    }
    int excl = carry + part[threadIdx.x] - v;
    if (i < n) { start[i] = excl; cursor[i] = excl; }
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) carry += part[threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.x == 0) start[n] = carry;
}

__global__ void scatter(const int *rowptr, const int *col, const int *val, int nrows, int *cursor, int *trow,
                        int *tval) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += gridDim.x * blockDim.x)
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
      int p = atomicAdd(&cursor[col[j]], 1);
      trow[p] = r;
      tval[p] = val[j];
    }
}

int main() {
  const int nrows = 12000, ncols = 3000;
  std::vector<int> rowptr(nrows + 1), col, val;
  unsigned s = 12345;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  rowptr[0] = 0;
  for (int r = 0; r < nrows; r++) {
    int len = rnd() % 24 + (r % 7 == 0 ? 20 : 0);
    for (int j = 0; j < len; j++) {
      col.push_back(rnd() % ncols);
      val.push_back((int)(rnd() % 1000) - 500);
    }
    rowptr[r + 1] = (int)col.size();
  }
  int nnz = rowptr[nrows];
  std::vector<int> cnt(ncols, 0);
  std::vector<long long> rsum(ncols, 0), vsum(ncols, 0);
  for (int r = 0; r < nrows; r++)
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
      cnt[col[j]]++;
      rsum[col[j]] += r;
      vsum[col[j]] += (long long)val[j] * (r % 13 + 1);
    }
  int *drp, *dcol, *dval, *dcnt, *dstart, *dcur, *dtr, *dtv, *dws;
  cudaMalloc(&drp, (nrows + 1) * 4);
  cudaMalloc(&dcol, nnz * 4);
  cudaMalloc(&dval, nnz * 4);
  cudaMalloc(&dcnt, ncols * 4);
  cudaMalloc(&dstart, (ncols + 1) * 4);
  cudaMalloc(&dcur, ncols * 4);
  cudaMalloc(&dtr, nnz * 4);
  cudaMalloc(&dtv, nnz * 4);
  cudaMalloc(&dws, (nrows + 1 + ncols) * 4);
  cudaMemcpy(drp, rowptr.data(), (nrows + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dcol, col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, val.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemset(dcnt, 0, ncols * 4);
  countCols<<<32, 128>>>(drp, dcol, nrows, dcnt);
  scanCounts<<<1, 1024>>>(dcnt, ncols, dstart, dcur);
  scatter<<<32, 128>>>(drp, dcol, dval, nrows, dcur, dtr, dtv);
  // the counts again, the row offsets and the counts in one allocation
  cudaMemcpy(dws, rowptr.data(), (nrows + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemset(dws + nrows + 1, 0, ncols * 4);
  countCols<<<32, 128>>>(dws, dcol, nrows, dws + nrows + 1);
  std::vector<int> gcnt(ncols), gstart(ncols + 1), gtr(nnz), gtv(nnz), gcnt2(ncols);
  cudaMemcpy(gcnt.data(), dcnt, ncols * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gstart.data(), dstart, (ncols + 1) * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gtr.data(), dtr, nnz * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gtv.data(), dtv, nnz * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gcnt2.data(), dws + nrows + 1, ncols * 4, cudaMemcpyDeviceToHost);
  bool ok = cudaDeviceSynchronize() == cudaSuccess && gstart[ncols] == nnz;
  long long total = 0, check = 0;
  for (int c = 0; c < ncols && ok; c++) {
    long long rs = 0, vs = 0;
    for (int p = gstart[c]; p < gstart[c] + cnt[c]; p++) {
      rs += gtr[p];
      vs += (long long)gtv[p] * (gtr[p] % 13 + 1);
    }
    ok = gcnt[c] == cnt[c] && gcnt2[c] == cnt[c] && (c + 1 > ncols - 1 || gstart[c + 1] - gstart[c] == cnt[c]) &&
         rs == rsum[c] && vs == vsum[c];
    total += rs;
    check += vs * (c % 5 + 1);
  }
  printf("csrt: %d x %d, %d nonzeros; row sum %lld, weighted %lld\n", nrows, ncols, nnz, total, check);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
