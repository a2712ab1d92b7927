// One set of templates instantiated for float, double, half and int8 in one program: a block
// reduction through dynamic shared memory typed by an accumulator trait (float -> float, double ->
// double, half -> float, int8 -> int), a 32x32 tiled transpose with a padded tile of the element
// type (1-, 2-, 4- and 8-byte elements: different bank patterns for one source line), and a
// grid-stride a*x+y with a per-type conversion and clamp (int8 saturates). The host computes
// everything and the checksums.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <typename T> struct Acc { typedef T type; };
template <> struct Acc<half> { typedef float type; };
template <> struct Acc<int8_t> { typedef int type; };

template <typename T> __host__ __device__ inline typename Acc<T>::type widen(T v) { return (typename Acc<T>::type)v; }
template <> __host__ __device__ inline float widen<half>(half v) { return __half2float(v); }

template <typename T> __device__ inline T narrow(float v) { return (T)v; }
template <> __device__ inline half narrow<half>(float v) { return __float2half_rn(v); }
template <> __device__ inline int8_t narrow<int8_t>(float v) {
  int r = __float2int_rn(v);
  return (int8_t)(r > 127 ? 127 : (r < -128 ? -128 : r));
}

template <typename T, int BS>
__global__ void blockReduce(const T *in, typename Acc<T>::type *out, int n) {
  typedef typename Acc<T>::type A;
  extern __shared__ __align__(16) unsigned char raw[];
  A *s = reinterpret_cast<A *>(raw);
  A v = 0;
  for (int i = blockIdx.x * BS + threadIdx.x; i < n; i += gridDim.x * BS) v += widen(in[i]);
  s[threadIdx.x] = v;
  __syncthreads();
  for (int o = BS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T>
__global__ void transpose(const T *in, T *out, int rows, int cols) {
  __shared__ T tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
__global__ void axpy(float a, const T *x, T *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = narrow<T>(a * (float)widen(x[i]) + (float)widen(y[i]));
}

static unsigned rng = 777u;
static int rnd(int m) { rng = rng * 1103515245u + 12345u; return (int)((rng >> 8) % (unsigned)m); }

template <typename T> T mk(int v);
template <> float mk<float>(int v) { return v / 4.0f; }
template <> double mk<double>(int v) { return v / 8.0; }
template <> half mk<half>(int v) { return __float2half(v / 16.0f); }
template <> int8_t mk<int8_t>(int v) { return (int8_t)(v % 120); }
template <typename T> double hd(T v) { return (double)v; }
template <> double hd<half>(half v) { return (double)__half2float(v); }
template <typename T> T hnarrow(float v) { return (T)v; }
template <> half hnarrow<half>(float v) { return __float2half_rn(v); }
template <> int8_t hnarrow<int8_t>(float v) {
  float r = nearbyintf(v);
  return (int8_t)(r > 127 ? 127 : (r < -128 ? -128 : r));
}
template <typename T> bool same(T a, T b) { return a == b; }
template <> bool same<half>(half a, half b) { return __half_as_ushort(a) == __half_as_ushort(b); }

template <typename T>
int runType(const char *name) {
  typedef typename Acc<T>::type A;
  const int n = 1 << 16, rows = 200, cols = 328, blocks = 32;
  std::vector<T> h(n), y(n), ty(n), tout((size_t)rows * cols), tin((size_t)rows * cols);
  for (int i = 0; i < n; ++i) h[i] = mk<T>(rnd(201) - 100);
  for (int i = 0; i < n; ++i) y[i] = mk<T>(rnd(101) - 50);
  for (size_t i = 0; i < tin.size(); ++i) tin[i] = mk<T>(rnd(241) - 120);
  T *dx, *dy, *dti, *dto; A *dr;
  CK(cudaMalloc(&dx, n * sizeof(T))); CK(cudaMalloc(&dy, n * sizeof(T)));
  CK(cudaMalloc(&dti, tin.size() * sizeof(T))); CK(cudaMalloc(&dto, tin.size() * sizeof(T)));
  CK(cudaMalloc(&dr, blocks * sizeof(A)));
  CK(cudaMemcpy(dx, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dti, tin.data(), tin.size() * sizeof(T), cudaMemcpyHostToDevice));
  blockReduce<T, 256><<<blocks, 256, 256 * sizeof(A)>>>(dx, dr, n);
  CK(cudaGetLastError());
  transpose<T><<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(dti, dto, rows, cols);
  CK(cudaGetLastError());
  float a = 1.5f;
  axpy<T><<<64, 128>>>(a, dx, dy, n);
  CK(cudaGetLastError());
  std::vector<A> part(blocks);
  CK(cudaMemcpy(part.data(), dr, blocks * sizeof(A), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ty.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(tout.data(), dto, tout.size() * sizeof(T), cudaMemcpyDeviceToHost));
  // host: the same tree per block (inputs are exact multiples: sums exact in every type)
  int bad = 0;
  double total = 0, ref = 0;
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    for (int t = 0; t < 256; ++t)
      for (int i = b * 256 + t; i < n; i += blocks * 256) s += hd(h[i]);
    bad += (double)part[b] != s;
    total += (double)part[b];
    ref += s;
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) bad += !same(tout[(size_t)c * rows + r], tin[(size_t)r * cols + c]);
  double ysum = 0;
  for (int i = 0; i < n; ++i) {
    T e = hnarrow<T>(a * (float)hd(h[i]) + (float)hd(y[i]));
    bad += !same(ty[i], e);
    ysum += hd(ty[i]) * (1 + i % 13);
  }
  double tsum = 0;
  for (size_t i = 0; i < tout.size(); ++i) tsum += hd(tout[i]) * (double)(1 + i % 17);
  printf("%-6s sum %.4f (host %.4f) axpy %.4f transpose %.4f: %d wrong\n", name, total, ref, ysum, tsum, bad);
  CK(cudaFree(dx)); CK(cudaFree(dy)); CK(cudaFree(dti)); CK(cudaFree(dto)); CK(cudaFree(dr));
  return bad != 0;
}

int main() {
  int fails = 0;
  fails += runType<float>("float");
  fails += runType<double>("double");
  fails += runType<half>("half");
  fails += runType<int8_t>("int8");
  printf("tmpl: %s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
