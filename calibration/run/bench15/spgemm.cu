// Sparse matrix product C = A B in CSR (2,048 x 2,048, integer values) by rows with hash tables in
// shared memory: a block a row of C inserts every product's column by atomicCAS with linear
// probing into a 512-slot table (a retry loop whose length depends on which lane wins) and adds
// the value by a shared atomicAdd; the count kernel sizes each row by __syncthreads_count and
// flags overflow by __syncthreads_or; the host scans the sizes; the fill kernel (launched through
// cudaLaunchKernel with an argument array, its attributes read by cudaFuncGetAttributes) rebuilds
// the table and writes each entry at its rank among the row's columns. Checked against the host's
// dense-row product. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define SLOTS 512
#define BT 128

__device__ void buildRow(int row, const int *aPtr, const int *aCol, const int *aVal, const int *bPtr,
                         const int *bCol, const int *bVal, int *keys, int *vals, int *overflow) {
  for (int s = threadIdx.x; s < SLOTS; s += BT) { keys[s] = -1; vals[s] = 0; }
  __syncthreads();
  for (int e = aPtr[row]; e < aPtr[row + 1]; e++) {
    int k = aCol[e], av = aVal[e];
    for (int f = bPtr[k] + threadIdx.x; f < bPtr[k + 1]; f += BT) {
      int j = bCol[f];
      unsigned h = ((unsigned)j * 2654435761u) >> 23;
      for (int probe = 0; probe < SLOTS; probe++) {
        int prev = atomicCAS(&keys[h], -1, j);
        if (prev == -1 || prev == j) { atomicAdd(&vals[h], av * bVal[f]); break; }
        h = (h + 1) & (SLOTS - 1);
        if (probe == SLOTS - 1) *overflow = 1;
      }
    }
  }
  __syncthreads();
}

__global__ void countRows(const int *aPtr, const int *aCol, const int *aVal, const int *bPtr, const int *bCol,
                          const int *bVal, int *cCount, int *anyOverflow) {
  __shared__ int keys[SLOTS], vals[SLOTS], overflow;
  if (threadIdx.x == 0) overflow = 0;
  buildRow(blockIdx.x, aPtr, aCol, aVal, bPtr, bCol, bVal, keys, vals, &overflow);
  int mine = 0;
  for (int s = threadIdx.x; s < SLOTS; s += BT) mine += keys[s] >= 0;
  // the counts of four slots a thread, summed by __syncthreads_count per bit of mine (0..4)
  int total = 0;
  for (int bit = 0; bit < 3; bit++) total += __syncthreads_count((mine >> bit) & 1) << bit;
  int over = __syncthreads_or(overflow);
  if (threadIdx.x == 0) { cCount[blockIdx.x] = total; if (over) atomicExch(anyOverflow, 1); }
}

__global__ void fillRows(const int *aPtr, const int *aCol, const int *aVal, const int *bPtr, const int *bCol,
                         const int *bVal, const int *cPtr, int *cCol, int *cVal) {
  __shared__ int keys[SLOTS], vals[SLOTS], overflow;
  buildRow(blockIdx.x, aPtr, aCol, aVal, bPtr, bCol, bVal, keys, vals, &overflow);
  int base = cPtr[blockIdx.x];
  for (int s = threadIdx.x; s < SLOTS; s += BT) {
    int j = keys[s];
    if (j < 0) continue;
    int rank = 0;
    for (int o = 0; o < SLOTS; o++) rank += (unsigned)keys[o] < (unsigned)j;
    cCol[base + rank] = j;
    cVal[base + rank] = vals[s];
  }
}

static void randomCsr(int n, int lo, int hi, unsigned &s, std::vector<int> &ptr, std::vector<int> &col, std::vector<int> &val) {
  ptr.assign(n + 1, 0); col.clear(); val.clear();
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    int cnt = lo + (s >> 10) % (hi - lo + 1);
    std::vector<int> cs;
    for (int c = 0; c < cnt; c++) {
      s = s * 1664525u + 1013904223u;
      int j = (i % 5 == 0) ? (int)((s >> 10) % 64) : (int)((s >> 10) % n);  // some rows share columns
      cs.push_back(j);
    }
    std::sort(cs.begin(), cs.end()); cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    for (int j : cs) { s = s * 1664525u + 1013904223u; col.push_back(j); val.push_back(1 + (s >> 12) % 9); }
    ptr[i + 1] = (int)col.size();
  }
}

int main() {
  const int N = 2048;
  unsigned s = 555;
  std::vector<int> aPtr, aCol, aVal, bPtr, bCol, bVal;
  randomCsr(N, 1, 24, s, aPtr, aCol, aVal);
  randomCsr(N, 1, 16, s, bPtr, bCol, bVal);
  std::vector<int> rPtr(N + 1, 0), rCol, rVal, dense(N, 0), mark(N, 0);
  for (int i = 0; i < N; i++) {
    std::vector<int> cols;
    for (int e = aPtr[i]; e < aPtr[i + 1]; e++)
      for (int f = bPtr[aCol[e]]; f < bPtr[aCol[e] + 1]; f++) {
        int j = bCol[f];
        if (!mark[j]) { mark[j] = 1; cols.push_back(j); }
        dense[j] += aVal[e] * bVal[f];
      }
    std::sort(cols.begin(), cols.end());
    for (int j : cols) { rCol.push_back(j); rVal.push_back(dense[j]); dense[j] = 0; mark[j] = 0; }
    rPtr[i + 1] = (int)rCol.size();
  }
  auto up = [](const std::vector<int> &v) { int *d; CK(cudaMalloc(&d, v.size() * sizeof(int))); CK(cudaMemcpy(d, v.data(), v.size() * sizeof(int), cudaMemcpyHostToDevice)); return d; };
  int *dAP = up(aPtr), *dAC = up(aCol), *dAV = up(aVal), *dBP = up(bPtr), *dBC = up(bCol), *dBV = up(bVal);
  int *dCount, *dOver, *dCP, *dCC, *dCV;
  CK(cudaMalloc(&dCount, N * sizeof(int))); CK(cudaMalloc(&dOver, sizeof(int))); CK(cudaMemset(dOver, 0, sizeof(int)));
  countRows<<<N, BT>>>(dAP, dAC, dAV, dBP, dBC, dBV, dCount, dOver);
  CK(cudaGetLastError());
  std::vector<int> count(N), cPtr(N + 1, 0); int over;
  CK(cudaMemcpy(count.data(), dCount, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&over, dOver, sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) cPtr[i + 1] = cPtr[i] + count[i];
  int nnz = cPtr[N];
  dCP = up(cPtr);
  CK(cudaMalloc(&dCC, nnz * sizeof(int))); CK(cudaMalloc(&dCV, nnz * sizeof(int)));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, fillRows));
  void *args[] = {&dAP, &dAC, &dAV, &dBP, &dBC, &dBV, &dCP, &dCC, &dCV};
  CK(cudaLaunchKernel((const void *)fillRows, dim3(N), dim3(BT), args, 0, 0));
  CK(cudaDeviceSynchronize());
  std::vector<int> cCol(nnz), cVal(nnz);
  CK(cudaMemcpy(cCol.data(), dCC, nnz * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(cVal.data(), dCV, nnz * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = over == 0 && cPtr == rPtr && cCol == rCol && cVal == rVal;
  long long vs = 0; for (int v : cVal) vs += v;
  printf("C: %d nonzeros (A %d, B %d), value sum %lld, overflow %d; fillRows: %d bytes of static shared memory, at most %d threads\n",
         nnz, aPtr[N], bPtr[N], vs, over, (int)attr.sharedSizeBytes, attr.maxThreadsPerBlock);
  printf("spgemm: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
