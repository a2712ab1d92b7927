// One warp, one launch per row: wmma.load.a / wmma.load.b (f16, m16n16k16) from shared, then
// wmma.load.c / wmma.store.d (f32) from and to shared, with the leading dimensions and offsets
// given at run time. Shared memory is dynamic (extern), so nothing is optimised away and the only
// shared-memory instructions are the wmma ones (ptxas: one LDSM.16.{M88,MT88}.4 per A/B load,
// LDS.64 x4 / STS.64 x4 for a row-major C, LDS x8 / STS x8 for a column-major C).
// Usage: wmma_calib ROWS.tsv   (columns: id la lb lc lda offa ldb offb ldc offc, offsets in elements)
#include <mma.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
using namespace nvcuda;

template <bool AROW, bool BROW, bool CROW>
__global__ void wmma_ls(float* out, int lda, int offa, int ldb, int offb, int ldc, int offc) {
  extern __shared__ __align__(128) unsigned char smem[];
  half* sa = (half*)smem;                 // 16 KiB
  half* sb = (half*)(smem + 16384);       // 16 KiB
  float* sc = (float*)(smem + 32768);     // 16 KiB
  typedef typename std::conditional<AROW, wmma::row_major, wmma::col_major>::type LA;
  typedef typename std::conditional<BROW, wmma::row_major, wmma::col_major>::type LB;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, LA> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, LB> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(a, sa + offa, lda);
  wmma::load_matrix_sync(b, sb + offb, ldb);
  wmma::load_matrix_sync(c, sc + offc, ldc, CROW ? wmma::mem_row_major : wmma::mem_col_major);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(sc + offc, c, ldc, CROW ? wmma::mem_row_major : wmma::mem_col_major);
}

typedef void (*K)(float*, int, int, int, int, int, int);
#define INST(a, b, c) template __global__ void wmma_ls<a, b, c>(float*, int, int, int, int, int, int);
INST(true, true, true) INST(true, true, false) INST(true, false, true) INST(true, false, false)
INST(false, true, true) INST(false, true, false) INST(false, false, true) INST(false, false, false)

static K pick(char la, char lb, char lc) {
  K t[8] = {wmma_ls<false, false, false>, wmma_ls<false, false, true>, wmma_ls<false, true, false>,
            wmma_ls<false, true, true>,   wmma_ls<true, false, false>,  wmma_ls<true, false, true>,
            wmma_ls<true, true, false>,   wmma_ls<true, true, true>};
  return t[(la == 'r') * 4 + (lb == 'r') * 2 + (lc == 'r')];
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s ROWS.tsv\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 2; }
  float* out;
  cudaMalloc(&out, 4096);
  for (int i = 0; i < 8; i++) {
    K k = pick(i & 4 ? 'r' : 'c', i & 2 ? 'r' : 'c', i & 1 ? 'r' : 'c');
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152);
  }
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || !strncmp(line, "id", 2)) continue;
    int id, lda, offa, ldb, offb, ldc, offc;
    char la[4], lb[4], lc[4];
    if (sscanf(line, "%d %3s %3s %3s %d %d %d %d %d %d", &id, la, lb, lc, &lda, &offa, &ldb, &offb, &ldc, &offc) != 10) {
      fprintf(stderr, "%s: bad row: %s", argv[1], line);
      return 2;
    }
    pick(la[0], lb[0], lc[0])<<<1, 32, 49152>>>(out, lda, offa, ldb, offb, ldc, offc);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "row %d: %s\n", id, cudaGetErrorString(e)); return 1; }
    n++;
  }
  printf("%d rows launched\n", n);
  return 0;
}
