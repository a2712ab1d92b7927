// Smith-Waterman local alignment scores over 32x32 tiles, one launch per anti-diagonal of tiles
// (63 launches for 1,024 x 1,024): each block loads its tile's top row and left column from the
// global score matrix into shared memory, sweeps the tile's own anti-diagonals (thread t owns row
// t, a __syncthreads per step), writes the tile back by columns and raises the best score with
// atomicMax. The whole matrix and the best score are checked against the host.
// Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define T 32
#define MATCH 3
#define MISS (-3)
#define GAP 2

__global__ void tileDiag(int *H, int ld, const char *a, const char *b, int d, int tiles, int *best) {
  __shared__ int s[T + 1][T + 1];
  __shared__ char sa[T], sb[T];
  int bi = max(0, d - (tiles - 1)) + blockIdx.x;  // tile row
  int bj = d - bi;                                // tile column
  int r0 = bi * T, c0 = bj * T, t = threadIdx.x;
  s[0][t + 1] = H[r0 * ld + c0 + t + 1];
  s[t + 1][0] = H[(r0 + t + 1) * ld + c0];
  if (t == 0) s[0][0] = H[r0 * ld + c0];
  sa[t] = a[r0 + t];
  sb[t] = b[c0 + t];
  __syncthreads();
  int mine = 0;
  for (int step = 0; step < 2 * T - 1; step++) {
    int j = step - t;
    if (j >= 0 && j < T) {
      int diag = s[t][j] + (sa[t] == sb[j] ? MATCH : MISS);
      int up = s[t][j + 1] - GAP, left = s[t + 1][j] - GAP;
      int v = max(max(0, diag), max(up, left));
      s[t + 1][j + 1] = v;
      mine = max(mine, v);
    }
    __syncthreads();
  }
  for (int r = 1; r <= T; r++) H[(r0 + r) * ld + c0 + t + 1] = s[r][t + 1];
  for (int o = 16; o > 0; o >>= 1) mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, o));
  if (t == 0) atomicMax(best, mine);
}

int main() {
  const int N = 1024, LD = N + 1, TILES = N / T;
  std::vector<char> a(N), b(N);
  unsigned x = 12345;
  for (int i = 0; i < N; i++) { x = x * 1103515245u + 12345u; a[i] = "ACGT"[(x >> 16) & 3]; }
  for (int i = 0; i < N; i++) { x = x * 1103515245u + 12345u; b[i] = "ACGT"[(x >> 16) & 3]; }
  for (int i = 0; i < 300; i++) b[200 + i] = ((i % 17) == 3) ? 'A' : a[500 + i];  // a shared region
  int *dH, *dBest; char *da, *db;
  CK(cudaMalloc(&dH, LD * LD * sizeof(int)));
  CK(cudaMemset(dH, 0, LD * LD * sizeof(int)));
  CK(cudaMalloc(&dBest, sizeof(int)));
  CK(cudaMemset(dBest, 0, sizeof(int)));
  CK(cudaMalloc(&da, N)); CK(cudaMalloc(&db, N));
  CK(cudaMemcpy(da, a.data(), N, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), N, cudaMemcpyHostToDevice));
  for (int d = 0; d < 2 * TILES - 1; d++) {
    int count = d < TILES ? d + 1 : 2 * TILES - 1 - d;
    tileDiag<<<count, T>>>(dH, LD, da, db, d, TILES, dBest);
    CK(cudaGetLastError());
  }
  std::vector<int> H(LD * LD), R(LD * LD, 0);
  int best = 0;
  CK(cudaMemcpy(H.data(), dH, LD * LD * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&best, dBest, sizeof(int), cudaMemcpyDeviceToHost));
  int want = 0, bad = 0, bi = 0, bj = 0;
  long long check = 0;
  for (int i = 1; i <= N; i++) for (int j = 1; j <= N; j++) {
    int diag = R[(i - 1) * LD + j - 1] + (a[i - 1] == b[j - 1] ? MATCH : MISS);
    int v = diag > 0 ? diag : 0;
    if (R[(i - 1) * LD + j] - GAP > v) v = R[(i - 1) * LD + j] - GAP;
    if (R[i * LD + j - 1] - GAP > v) v = R[i * LD + j - 1] - GAP;
    R[i * LD + j] = v;
    if (v > want) { want = v; bi = i; bj = j; }
    if (H[i * LD + j] != v && bad++ < 5) printf("H[%d][%d] got %d want %d\n", i, j, H[i * LD + j], v);
    check += (long long)H[i * LD + j] * ((i ^ j) & 15);
  }
  bool ok = bad == 0 && best == want;
  if (best != want) printf("best %d want %d\n", best, want);
  printf("best %d at (%d,%d), checksum %lld\n", best, bi, bj, check);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
