// wmma on bf16 (m16n16k16, f32 accumulator): the A and B fragments are four registers each. One
// warp computes a 16x16 tile of A (16xK, row-major) times B (Kx16, column-major), loading the
// fragments from global memory and, in a second kernel, from shared memory; both against a host
// reference (small integers: exact in bf16 and f32).
#include <cstdio>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

const int K = 64;

__global__ void tileGlobal(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void tileShared(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c) {
  __shared__ __align__(32) __nv_bfloat16 sa[16 * K], sb[16 * K];
  for (int i = threadIdx.x; i < 16 * K; i += 32) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, sa + k, K);
    wmma::load_matrix_sync(fb, sb + k, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

int main() {
  float ha[16 * K], hb[16 * K], ref[256], out[256];
  __nv_bfloat16 ga[16 * K], gb[16 * K];
  for (int i = 0; i < 16 * K; i++) {
    ha[i] = (float)(i % 5) - 2;
    hb[i] = (float)(i % 7) - 3;
    ga[i] = __float2bfloat16(ha[i]);
    gb[i] = __float2bfloat16(hb[i]);
  }
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float s = 0;
      for (int k = 0; k < K; k++) s += ha[i * K + k] * hb[j * K + k];
      ref[i * 16 + j] = s;
    }
  __nv_bfloat16 *da, *db;
  float *dc;
  cudaMalloc(&da, sizeof ga);
  cudaMalloc(&db, sizeof gb);
  cudaMalloc(&dc, sizeof out);
  cudaMemcpy(da, ga, sizeof ga, cudaMemcpyHostToDevice);
  cudaMemcpy(db, gb, sizeof gb, cudaMemcpyHostToDevice);
  int fails = 0;
  for (int v = 0; v < 2; v++) {
    cudaMemset(dc, 0, sizeof out);
    if (v == 0)
      tileGlobal<<<1, 32>>>(da, db, dc);
    else
      tileShared<<<1, 32>>>(da, db, dc);
    cudaError_t e = cudaMemcpy(out, dc, sizeof out, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += out[i] != ref[i];
    printf("%s: %d wrong (%s), d[0][0] %g d[15][15] %g\n", v ? "shared" : "global", bad,
           cudaGetErrorString(e), out[0], out[255]);
    fails += bad + (e != cudaSuccess);
  }
  printf("%s\n", fails ? "Test FAILED" : "Test PASSED");
  return fails != 0;
}
