// Tensor-core fragments (wmma) in seven shapes and types, every input a small multiple of a power of
// two so that every product and sum is exact and the results do not depend on the order of the
// tensor cores' additions: a 128x128x128 half GEMM with float accumulators (a block of 4 warps a
// 64x64 tile, each warp 2x2 fragments, K tiles of 32 staged in shared memory with padded leading
// dimensions 40 and 72, the accumulators stored column-major into shared memory and written out
// with a bias and a ReLU); f16 accumulators (m16n16k16, D stored as half); u8 m16n16k16 with int
// accumulators; int8 m32n8k16 with int accumulators straight from global memory
// (A row-major, B column-major); bf16 m8n32k16; tf32 m16n16k8 (`__float_to_tf32` on the loaded
// fragments); double m8n8k4. The host computes every product.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int N = 128, LDA = 40, LDB = 72, LDC = 68;

__global__ void gemmHalf(const half *a, const half *b, const float *bias, float *c) {
  __shared__ __align__(32) half sa[64 * LDA];
  __shared__ __align__(32) half sb[32 * LDB];
  __shared__ __align__(32) float sc[64 * LDC];
  int warp = threadIdx.x >> 5, wr = warp >> 1, wc = warp & 1;
  int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < N; k0 += 32) {
    for (int i = threadIdx.x; i < 64 * 32; i += blockDim.x) {
      int r = i >> 5, k = i & 31;
      sa[r * LDA + k] = a[(r0 + r) * N + k0 + k];
    }
    for (int i = threadIdx.x; i < 32 * 64; i += blockDim.x) {
      int k = i >> 6, cc = i & 63;
      sb[k * LDB + cc] = b[(k0 + k) * N + c0 + cc];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], sa + (wr * 32 + i * 16) * LDA + kk, LDA);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], sb + kk * LDB + wc * 32 + j * 16, LDB);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  // column-major into shared: element (r, c) of the block tile at sc[c * LDC + r]
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(sc + (wc * 32 + j * 16) * LDC + wr * 32 + i * 16, acc[i][j], LDC, wmma::mem_col_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
    int r = i >> 6, cc = i & 63;
    float v = sc[cc * LDC + r] + bias[c0 + cc];
    c[(r0 + r) * N + c0 + cc] = v > 0.0f ? v : 0.0f;
  }
}

// f16 accumulators: m16n16k16, A row-major, B column-major, D stored as half
__global__ void gemmHalfAcc(const half *a, const half *b, half *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 16), tc = warp % (n / 16);
  if (tr * 16 >= n) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 16 * n + k, n);
    wmma::load_matrix_sync(fb, b + tc * 16 * n + k, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 16 * n + tc * 16, acc, n, wmma::mem_row_major);
}

// u8: m16n16k16 with int accumulators, both row-major
__global__ void gemmU8(const unsigned char *a, const unsigned char *b, int *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 16), tc = warp % (n / 16);
  if (tr * 16 >= n) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 16 * n + k, n);
    wmma::load_matrix_sync(fb, b + k * n + tc * 16, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 16 * n + tc * 16, acc, n, wmma::mem_row_major);
}

// int8: m32n8k16, a warp a 32x8 tile of a 64x64 product, A row-major, B column-major
__global__ void gemmInt8(const signed char *a, const signed char *b, int *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 8), tc = warp % (n / 8);
  if (tr * 32 >= n) return;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, signed char, wmma::col_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 32 * n + k, n);
    wmma::load_matrix_sync(fb, b + tc * 8 * n + k, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 32 * n + tc * 8, acc, n, wmma::mem_row_major);
}

// bf16: m8n32k16, a warp an 8x32 tile, both row-major
__global__ void gemmBf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 32), tc = warp % (n / 32);
  if (tr * 8 >= n) return;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 8 * n + k, n);
    wmma::load_matrix_sync(fb, b + k * n + tc * 32, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 8 * n + tc * 32, acc, n, wmma::mem_row_major);
}

// tf32: m16n16k8, the loaded floats rounded to tf32
__global__ void gemmTf32(const float *a, const float *b, float *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 16), tc = warp % (n / 16);
  if (tr * 16 >= n) return;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < n; k += 8) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 16 * n + k, n);
    wmma::load_matrix_sync(fb, b + tc * 16 * n + k, n);
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 16 * n + tc * 16, acc, n, wmma::mem_row_major);
}

// double: m8n8k4
__global__ void gemmF64(const double *a, const double *b, double *c, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int tr = warp / (n / 8), tc = warp % (n / 8);
  if (tr * 8 >= n) return;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.0);
  for (int k = 0; k < n; k += 4) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, a + tr * 8 * n + k, n);
    wmma::load_matrix_sync(fb, b + k * n + tc * 8, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tr * 8 * n + tc * 8, acc, n, wmma::mem_row_major);
}

static unsigned rng = 12345u;
static int rnd(int m) { rng = rng * 1664525u + 1013904223u; return (int)((rng >> 9) % (unsigned)m); }

int main() {
  int fails = 0;
  const int n = 64;
  // half GEMM
  {
    std::vector<float> fa(N * N), fb(N * N), bias(N), ref(N * N), out(N * N);
    std::vector<half> ha(N * N), hb(N * N);
    for (int i = 0; i < N * N; ++i) { fa[i] = (rnd(17) - 8) / 8.0f; ha[i] = __float2half(fa[i]); }
    for (int i = 0; i < N * N; ++i) { fb[i] = (rnd(17) - 8) / 8.0f; hb[i] = __float2half(fb[i]); }
    for (int i = 0; i < N; ++i) bias[i] = (rnd(9) - 4) / 2.0f;
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) {
        float s = 0;
        for (int k = 0; k < N; ++k) s += fa[r * N + k] * fb[k * N + c];
        s += bias[c];
        ref[r * N + c] = s > 0 ? s : 0;
      }
    half *da, *db; float *dbias, *dc;
    CK(cudaMalloc(&da, N * N * 2)); CK(cudaMalloc(&db, N * N * 2));
    CK(cudaMalloc(&dbias, N * 4)); CK(cudaMalloc(&dc, N * N * 4));
    CK(cudaMemcpy(da, ha.data(), N * N * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb.data(), N * N * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dbias, bias.data(), N * 4, cudaMemcpyHostToDevice));
    gemmHalf<<<dim3(N / 64, N / 64), 128>>>(da, db, dbias, dc);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, N * N * 4, cudaMemcpyDeviceToHost));
    int bad = 0; double sum = 0;
    for (int i = 0; i < N * N; ++i) { bad += out[i] != ref[i]; sum += out[i] * ((i % 7) + 1); }
    printf("half gemm: %d wrong, checksum %.6f\n", bad, sum);
    fails += bad != 0;
  }
  // f16 accumulators (B column-major)
  {
    std::vector<float> fa(n * n), fbt(n * n);
    std::vector<half> a(n * n), bt(n * n), out(n * n);
    for (int i = 0; i < n * n; ++i) { fa[i] = (rnd(5) - 2) / 2.0f; a[i] = __float2half(fa[i]); }
    for (int i = 0; i < n * n; ++i) { fbt[i] = (rnd(5) - 2) / 2.0f; bt[i] = __float2half(fbt[i]); }
    half *da, *db, *dc;
    CK(cudaMalloc(&da, n * n * 2)); CK(cudaMalloc(&db, n * n * 2)); CK(cudaMalloc(&dc, n * n * 2));
    CK(cudaMemcpy(da, a.data(), n * n * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, bt.data(), n * n * 2, cudaMemcpyHostToDevice));
    gemmHalfAcc<<<(n / 16) * (n / 16) * 32 / 128, 128>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 2, cudaMemcpyDeviceToHost));
    int bad = 0; double sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float s = 0;
        for (int k = 0; k < n; ++k) s += fa[r * n + k] * fbt[c * n + k];
        float o = __half2float(out[r * n + c]);
        bad += o != s; sum += o * (1 + (r * 3 + c) % 7);
      }
    printf("half-accumulator gemm: %d wrong, checksum %.6f\n", bad, sum);
    fails += bad != 0;
  }
  // u8
  {
    std::vector<unsigned char> a(n * n), b(n * n);
    for (auto &v : a) v = (unsigned char)rnd(256);
    for (auto &v : b) v = (unsigned char)rnd(256);
    std::vector<int> out(n * n);
    unsigned char *da, *db; int *dc;
    CK(cudaMalloc(&da, n * n)); CK(cudaMalloc(&db, n * n)); CK(cudaMalloc(&dc, n * n * 4));
    CK(cudaMemcpy(da, a.data(), n * n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * n, cudaMemcpyHostToDevice));
    gemmU8<<<(n / 16) * (n / 16) * 32 / 128, 128>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 4, cudaMemcpyDeviceToHost));
    int bad = 0; long long sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        int s = 0;
        for (int k = 0; k < n; ++k) s += a[r * n + k] * b[k * n + c];
        bad += out[r * n + c] != s; sum += (long long)out[r * n + c] * (1 + (r + 5 * c) % 3);
      }
    printf("u8 gemm: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  // int8
  {
    std::vector<signed char> a(n * n), bt(n * n);  // bt: B column-major (B^T row-major)
    for (auto &v : a) v = (signed char)(rnd(31) - 15);
    for (auto &v : bt) v = (signed char)(rnd(255) - 127);
    std::vector<int> out(n * n);
    signed char *da, *db; int *dc;
    CK(cudaMalloc(&da, n * n)); CK(cudaMalloc(&db, n * n)); CK(cudaMalloc(&dc, n * n * 4));
    CK(cudaMemcpy(da, a.data(), n * n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, bt.data(), n * n, cudaMemcpyHostToDevice));
    gemmInt8<<<(n / 32) * (n / 8) * 32 / 128, 128>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 4, cudaMemcpyDeviceToHost));
    int bad = 0; long long sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        int s = 0;
        for (int k = 0; k < n; ++k) s += a[r * n + k] * bt[c * n + k];
        bad += out[r * n + c] != s; sum += (long long)out[r * n + c] * (r + 2 * c + 1);
      }
    printf("int8 gemm: %d wrong, checksum %lld\n", bad, sum);
    fails += bad != 0;
  }
  // bf16
  {
    std::vector<float> fa(n * n), fb(n * n), out(n * n);
    std::vector<__nv_bfloat16> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) { fa[i] = (rnd(33) - 16) / 16.0f; a[i] = __float2bfloat16(fa[i]); }
    for (int i = 0; i < n * n; ++i) { fb[i] = (rnd(9) - 4) / 4.0f; b[i] = __float2bfloat16(fb[i]); }
    __nv_bfloat16 *da, *db; float *dc;
    CK(cudaMalloc(&da, n * n * 2)); CK(cudaMalloc(&db, n * n * 2)); CK(cudaMalloc(&dc, n * n * 4));
    CK(cudaMemcpy(da, a.data(), n * n * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * n * 2, cudaMemcpyHostToDevice));
    gemmBf16<<<(n / 8) * (n / 32) * 32 / 64, 64>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 4, cudaMemcpyDeviceToHost));
    int bad = 0; double sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float s = 0;
        for (int k = 0; k < n; ++k) s += fa[r * n + k] * fb[k * n + c];
        bad += out[r * n + c] != s; sum += out[r * n + c] * (1 + (r ^ c));
      }
    printf("bf16 gemm: %d wrong, checksum %.6f\n", bad, sum);
    fails += bad != 0;
  }
  // tf32 (B column-major)
  {
    std::vector<float> a(n * n), bt(n * n), out(n * n);
    for (auto &v : a) v = (rnd(65) - 32) / 32.0f;
    for (auto &v : bt) v = (rnd(17) - 8) / 2.0f;
    float *da, *db, *dc;
    CK(cudaMalloc(&da, n * n * 4)); CK(cudaMalloc(&db, n * n * 4)); CK(cudaMalloc(&dc, n * n * 4));
    CK(cudaMemcpy(da, a.data(), n * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, bt.data(), n * n * 4, cudaMemcpyHostToDevice));
    gemmTf32<<<(n / 16) * (n / 16) * 32 / 256, 256>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 4, cudaMemcpyDeviceToHost));
    int bad = 0; double sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float s = 0;
        for (int k = 0; k < n; ++k) s += a[r * n + k] * bt[c * n + k];
        bad += out[r * n + c] != s; sum += out[r * n + c] * (1 + (r + c) % 5);
      }
    printf("tf32 gemm: %d wrong, checksum %.6f\n", bad, sum);
    fails += bad != 0;
  }
  // double
  {
    std::vector<double> a(n * n), b(n * n), out(n * n);
    for (auto &v : a) v = (rnd(129) - 64) / 64.0;
    for (auto &v : b) v = (rnd(41) - 20) / 8.0;
    double *da, *db, *dc;
    CK(cudaMalloc(&da, n * n * 8)); CK(cudaMalloc(&db, n * n * 8)); CK(cudaMalloc(&dc, n * n * 8));
    CK(cudaMemcpy(da, a.data(), n * n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * n * 8, cudaMemcpyHostToDevice));
    gemmF64<<<(n / 8) * (n / 8) * 32 / 128, 128>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dc, n * n * 8, cudaMemcpyDeviceToHost));
    int bad = 0; double sum = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        double s = 0;
        for (int k = 0; k < n; ++k) s += a[r * n + k] * b[k * n + c];
        bad += out[r * n + c] != s; sum += out[r * n + c] * (1 + (3 * r + c) % 11);
      }
    printf("f64 gemm: %d wrong, checksum %.6f\n", bad, sum);
    fails += bad != 0;
  }
  printf("wmmamix: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
