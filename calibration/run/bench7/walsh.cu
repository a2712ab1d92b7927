// Dyadic convolution by the fast Walsh-Hadamard transform, in the shape of the classic
// "fastWalshTransform" sample (own code): radix-2 butterflies with strides of at least 1024
// elements through global memory, one launch a stride pair (radix-4: two strides a launch), then
// the strides below in shared memory, a block per 2048-element run (four elements a thread);
// the kernel's and the data's transforms multiplied pointwise (a modulation that scales by 1/N),
// the inverse transform, and a host check against the direct dyadic convolution.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

constexpr int RUN_LOG2 = 11;  // elements a block transforms in shared memory
constexpr int RUN = 1 << RUN_LOG2;

// the strides RUN/2 .. 1 within each run of RUN elements, four elements a thread (radix-4 steps,
// then a radix-2 step when log2 is odd)
__global__ void fwtShared(float* d) {
  extern __shared__ float s[];
  float* run = d + (blockIdx.x << RUN_LOG2);
  for (int i = threadIdx.x; i < RUN; i += blockDim.x) s[i] = run[i];
  int stride = RUN;
  for (; stride >= 4; stride >>= 2) {
    int q = stride >> 2;
    __syncthreads();
    for (int pos = threadIdx.x; pos < RUN / 4; pos += blockDim.x) {
      int lo = pos & (q - 1);
      int i0 = ((pos - lo) << 2) + lo;
      int i1 = i0 + q, i2 = i1 + q, i3 = i2 + q;
      float d0 = s[i0], d1 = s[i1], d2 = s[i2], d3 = s[i3];
      float t = d0;
      d0 = d0 + d2;
      d2 = t - d2;
      t = d1;
      d1 = d1 + d3;
      d3 = t - d3;
      t = d0;
      s[i0] = d0 + d1;
      s[i1] = t - d1;
      t = d2;
      s[i2] = d2 + d3;
      s[i3] = t - d3;
    }
  }
  if (stride == 2) {
    __syncthreads();
    for (int pos = threadIdx.x; pos < RUN / 2; pos += blockDim.x) {
      int i0 = pos << 1, i1 = i0 + 1;
      float d0 = s[i0], d1 = s[i1];
      s[i0] = d0 + d1;
      s[i1] = d0 - d1;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < RUN; i += blockDim.x) run[i] = s[i];
}

// two global strides (4q and 2q... as one radix-4 butterfly of quarter stride q), q >= RUN
__global__ void fwtGlobal4(float* d, int n, int q) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= n / 4) return;
  int lo = pos & (q - 1);
  int i0 = ((pos - lo) << 2) + lo;
  float* p = d + i0;
  float d0 = p[0], d1 = p[q], d2 = p[2 * q], d3 = p[3 * q];
  float t = d0;
  d0 = d0 + d2;
  d2 = t - d2;
  t = d1;
  d1 = d1 + d3;
  d3 = t - d3;
  p[0] = d0 + d1;
  p[q] = d0 - d1;
  p[2 * q] = d2 + d3;
  p[3 * q] = d2 - d3;
}

// one global radix-2 stride h >= RUN
__global__ void fwtGlobal2(float* d, int n, int h) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= n / 2) return;
  int lo = pos & (h - 1);
  int i0 = ((pos - lo) << 1) + lo;
  float a = d[i0], b = d[i0 + h];
  d[i0] = a + b;
  d[i0 + h] = a - b;
}

__global__ void modulate(float* a, const float* b, int n) {
  float scale = 1.0f / (float)n;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] *= b[i] * scale;
}

static int launches = 0;
static void fwt(float* d, int log2n) {
  int n = 1 << log2n;
  int h = n / 2;
  // pair the global strides into radix-4 steps while two remain at or above RUN
  while (h >= 2 * RUN) {
    int q = h / 2;
    fwtGlobal4<<<(n / 4 + 255) / 256, 256>>>(d, n, q);
    ++launches;
    h /= 4;
  }
  if (h >= RUN) {
    fwtGlobal2<<<(n / 2 + 255) / 256, 256>>>(d, n, h);
    ++launches;
  }
  fwtShared<<<n / RUN, 256, RUN * sizeof(float)>>>(d);
  ++launches;
}

int main() {
  const int LOG2N = 18, N = 1 << LOG2N, KN = 64;
  float *h = (float*)calloc(N, 4), *k = (float*)calloc(N, 4), *out = (float*)malloc(N * 4);
  unsigned x = 99u;
  for (int i = 0; i < N; ++i) {
    x = x * 1664525u + 1013904223u;
    h[i] = (float)((int)(x >> 24) - 128) / 128.f;
  }
  for (int i = 0; i < KN; ++i) k[i] = (float)((i * 37) % 11 - 5) / 8.f;
  float *dh, *dk;
  CHECK(cudaMalloc(&dh, N * 4));
  CHECK(cudaMalloc(&dk, N * 4));
  CHECK(cudaMemcpy(dh, h, N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dk, k, N * 4, cudaMemcpyHostToDevice));
  fwt(dh, LOG2N);
  fwt(dk, LOG2N);
  modulate<<<128, 256>>>(dh, dk, N);
  ++launches;
  fwt(dh, LOG2N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dh, N * 4, cudaMemcpyDeviceToHost));
  // direct dyadic convolution: out[i] = sum_j h[i ^ j] k[j]
  double maxErr = 0, sum = 0;
  for (int i = 0; i < N; ++i) {
    double r = 0;
    for (int j = 0; j < KN; ++j) r += (double)h[i ^ j] * k[j];
    maxErr = fmax(maxErr, fabs(r - out[i]));
    sum += out[i];
  }
  unsigned bits = 0;
  for (int i = 0; i < N; i += 31) {
    unsigned u;
    memcpy(&u, out + i, 4);
    bits = bits * 31 + u;
  }
  printf("dyadic convolution of %d by %d: %d launches, sum %.5f, out[12345] %.6f, bits %08x, max error %.2e\n",
         N, KN, launches, sum, out[12345], bits, maxErr);
  bool ok = maxErr < 1e-3;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
