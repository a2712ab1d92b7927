// Image filters in the shapes of the classic "convolutionSeparable" and "dct8x8" samples (own
// code): a separable 17-tap convolution with the taps in __constant__ memory, rows then columns,
// each block staging its tile plus halo tiles on both sides in shared memory (out-of-image halo
// pixels zero), several result tiles a thread by unrolled loops; an 8x8 DCT of the image's blocks
// in shared memory (a thread a row, then a thread a column, a padded row pitch), a quantisation,
// and the inverse DCT, the coefficients' cosine table in __constant__ memory.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

constexpr int R = 8;  // radius
__constant__ float taps[2 * R + 1];

constexpr int RX = 16, RY = 4, RSTEPS = 8, RHALO = 1;  // rows pass
__global__ void convRows(float* dst, const float* src, int w, int h) {
  __shared__ float s[RY][(RSTEPS + 2 * RHALO) * RX];
  const int bx = (blockIdx.x * RSTEPS - RHALO) * RX + threadIdx.x;
  const int y = blockIdx.y * RY + threadIdx.y;
  const float* in = src + y * w + bx;
  float* out = dst + y * w + bx;
#pragma unroll
  for (int i = RHALO; i < RHALO + RSTEPS; ++i) s[threadIdx.y][threadIdx.x + i * RX] = in[i * RX];
#pragma unroll
  for (int i = 0; i < RHALO; ++i) s[threadIdx.y][threadIdx.x + i * RX] = bx + i * RX >= 0 ? in[i * RX] : 0.f;
#pragma unroll
  for (int i = RHALO + RSTEPS; i < RHALO + RSTEPS + RHALO; ++i)
    s[threadIdx.y][threadIdx.x + i * RX] = bx + i * RX < w ? in[i * RX] : 0.f;
  __syncthreads();
#pragma unroll
  for (int i = RHALO; i < RHALO + RSTEPS; ++i) {
    float sum = 0.f;
#pragma unroll
    for (int j = -R; j <= R; ++j) sum += taps[R - j] * s[threadIdx.y][threadIdx.x + i * RX + j];
    out[i * RX] = sum;
  }
}

constexpr int CX = 16, CY = 8, CSTEPS = 8, CHALO = 1;  // columns pass
__global__ void convCols(float* dst, const float* src, int w, int h) {
  __shared__ float s[CX][(CSTEPS + 2 * CHALO) * CY + 1];
  const int x = blockIdx.x * CX + threadIdx.x;
  const int by = (blockIdx.y * CSTEPS - CHALO) * CY + threadIdx.y;
  const float* in = src + by * w + x;
  float* out = dst + by * w + x;
#pragma unroll
  for (int i = CHALO; i < CHALO + CSTEPS; ++i) s[threadIdx.x][threadIdx.y + i * CY] = in[i * CY * w];
#pragma unroll
  for (int i = 0; i < CHALO; ++i) s[threadIdx.x][threadIdx.y + i * CY] = by + i * CY >= 0 ? in[i * CY * w] : 0.f;
#pragma unroll
  for (int i = CHALO + CSTEPS; i < CHALO + CSTEPS + CHALO; ++i)
    s[threadIdx.x][threadIdx.y + i * CY] = by + i * CY < h ? in[i * CY * w] : 0.f;
  __syncthreads();
#pragma unroll
  for (int i = CHALO; i < CHALO + CSTEPS; ++i) {
    float sum = 0.f;
#pragma unroll
    for (int j = -R; j <= R; ++j) sum += taps[R - j] * s[threadIdx.x][threadIdx.y + i * CY + j];
    out[i * CY * w] = sum;
  }
}

__constant__ float cosTab[64];  // cosTab[u*8+x] = c(u) cos((2x+1) u pi / 16)
__constant__ float quant[64];

constexpr int PITCH = 8 * 4 + 1;  // four 8x8 blocks side by side a row of shared memory, padded
// a block of 8x32 threads transforms four 8x8 blocks: DCT rows, DCT columns, quantise, inverse
__global__ void dctQuant(float* img, int w, int* nonzero) {
  __shared__ float s[8][PITCH];
  __shared__ float t[8][PITCH];
  const int tx = threadIdx.x;  // 0..31: column within the four blocks
  const int ty = threadIdx.y;  // 0..7: row
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
  s[ty][tx] = img[(y0 + ty) * w + x0 + tx] - 128.f;
  __syncthreads();
  const int bx = tx & ~7, u = tx & 7;
  // rows: coefficient u of row ty
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += cosTab[u * 8 + k] * s[ty][bx + k];
  t[ty][tx] = acc;
  __syncthreads();
  // columns: coefficient v = ty of column tx
  acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += cosTab[ty * 8 + k] * t[k][tx];
  float q = quant[ty * 8 + u];
  float c = rintf(acc / q) * q;
  unsigned nz = __ballot_sync(0xffffffffu, c != 0.f);  // a warp is one row of four blocks
  if (tx == 0) atomicAdd(nonzero, __popc(nz));
  s[ty][tx] = c;
  __syncthreads();
  // inverse columns then rows
  acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += cosTab[k * 8 + ty] * s[k][tx];
  t[ty][tx] = acc;
  __syncthreads();
  acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += cosTab[k * 8 + u] * t[ty][bx + k];
  img[(y0 + ty) * w + x0 + tx] = fminf(fmaxf(acc + 128.f, 0.f), 255.f);
}

int main() {
  const int W = 1024, H = 768;
  const size_t N = (size_t)W * H;
  float* img = (float*)malloc(N * 4);
  float* out = (float*)malloc(N * 4);
  float* ref = (float*)malloc(N * 4);
  float* tmp = (float*)malloc(N * 4);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[y * W + x] = (float)((x * 7 + y * 13 + ((x * y) >> 5)) & 255) * (1.f / 255.f) + 0.5f * sinf(x * 0.05f) * cosf(y * 0.03f);
  float k[2 * R + 1], ksum = 0;
  for (int i = 0; i <= 2 * R; ++i) ksum += k[i] = expf(-(float)((i - R) * (i - R)) / (2.f * 3.f * 3.f));
  for (int i = 0; i <= 2 * R; ++i) k[i] /= ksum;
  CHECK(cudaMemcpyToSymbol(taps, k, sizeof(k)));
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, N * 4));
  CHECK(cudaMalloc(&d1, N * 4));
  CHECK(cudaMemcpy(d0, img, N * 4, cudaMemcpyHostToDevice));
  convRows<<<dim3(W / (RSTEPS * RX), H / RY), dim3(RX, RY)>>>(d1, d0, W, H);
  convCols<<<dim3(W / CX, H / (CSTEPS * CY)), dim3(CX, CY)>>>(d0, d1, W, H);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d0, N * 4, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      double s = 0;
      for (int j = -R; j <= R; ++j) s += (x + j >= 0 && x + j < W) ? k[R - j] * img[y * W + x + j] : 0.f;
      tmp[y * W + x] = (float)s;
    }
  double maxErr = 0, sum = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      double s = 0;
      for (int j = -R; j <= R; ++j) s += (y + j >= 0 && y + j < H) ? k[R - j] * tmp[(y + j) * W + x] : 0.f;
      ref[y * W + x] = (float)s;
      maxErr = fmax(maxErr, fabs(s - out[y * W + x]));
      sum += out[y * W + x];
    }
  unsigned bits = 0;
  for (size_t i = 0; i < N; i += 97) bits = bits * 31 + *(unsigned*)&out[i];
  printf("separable convolution %dx%d: sum %.6f, bits checksum %08x, max error %.2e\n", W, H, sum, bits, maxErr);
  bool ok = maxErr < 1e-4;

  // DCT, quantise, inverse
  float ct[64], qt[64];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x)
      ct[u * 8 + x] = (u ? sqrtf(2.f / 8.f) : sqrtf(1.f / 8.f)) * cosf((2 * x + 1) * u * 3.14159265358979f / 16.f);
  for (int v = 0; v < 8; ++v)
    for (int u = 0; u < 8; ++u) qt[v * 8 + u] = 4.f + 3.f * (u + v);
  CHECK(cudaMemcpyToSymbol(cosTab, ct, sizeof(ct)));
  CHECK(cudaMemcpyToSymbol(quant, qt, sizeof(qt)));
  for (size_t i = 0; i < N; ++i) img[i] = (float)(int)(img[i] * 200.f);
  CHECK(cudaMemcpy(d0, img, N * 4, cudaMemcpyHostToDevice));
  int* nz;
  CHECK(cudaMalloc(&nz, 4));
  CHECK(cudaMemset(nz, 0, 4));
  dctQuant<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(d0, W, nz);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d0, N * 4, cudaMemcpyDeviceToHost));
  int nonzero;
  CHECK(cudaMemcpy(&nonzero, nz, 4, cudaMemcpyDeviceToHost));
  double mse = 0;
  sum = 0;
  for (size_t i = 0; i < N; ++i) {
    double e = out[i] - fmin(fmax(img[i], 0.0), 255.0);
    mse += e * e;
    sum += out[i];
  }
  mse /= N;
  double psnr = 10 * log10(255.0 * 255.0 / mse);
  bits = 0;
  for (size_t i = 0; i < N; i += 89) bits = bits * 31 + *(unsigned*)&out[i];
  printf("dct8x8: %d nonzero coefficients of %zu, PSNR %.3f dB, sum %.3f, bits checksum %08x\n", nonzero, N,
         psnr, sum, bits);
  ok = ok && psnr > 30 && nonzero > 0 && nonzero < (int)N;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
