// C++ on the device: objects with virtual functions built in one kernel and called through
// their base in another, templates and lambdas (a
// generic transform-reduce instantiated with two lambdas), a kernel with
// __launch_bounds__(256, 4) launched by cudaLaunchKernelEx with attributes (a cluster
// dimension, a priority). The host checks every result.
#include <cooperative_groups.h>
#include <cstdio>
#include <new>
#include <vector>
#include <algorithm>
namespace cg = cooperative_groups;

struct Shape {
  float s;
  __device__ explicit Shape(float s) : s(s) {}
  __device__ virtual float area() const = 0;
  __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
  __device__ explicit Square(float s) : Shape(s) {}
  __device__ float area() const override { return s * s; }
  __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
  __device__ explicit Tri(float s) : Shape(s) {}
  __device__ float area() const override { return 0.5f * s * s; }
  __device__ int sides() const override { return 3; }
};
struct Disc : Shape {
  __device__ explicit Disc(float s) : Shape(s) {}
  __device__ float area() const override { return 3.0f * s * s; }
};
union Slot { char a[sizeof(Square)]; char b[sizeof(Tri)]; char c[sizeof(Disc)]; void* align; };

__global__ void build(Slot* slots, const int* kind, const float* size, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  void* p = &slots[i];
  switch (kind[i]) {
    case 0: new (p) Square(size[i]); break;
    case 1: new (p) Tri(size[i]); break;
    default: new (p) Disc(size[i]); break;
  }
}

__global__ void areas(const Slot* slots, float* area, int* sides, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Shape* s = reinterpret_cast<const Shape*>(&slots[i]);
  area[i] = s->area();
  sides[i] = s->sides();
}

template <typename T, typename F, typename R>
__device__ T transformReduce(const T* x, int n, int stride, F f, R r, T init) {
  T acc = init;
  for (int k = 0; k < n; k += stride) acc = r(acc, f(x[k], k));
  return acc;
}

template <typename T>
__global__ void __launch_bounds__(256, 4) lambdas(const T* x, T* out, int n, T scale) {
  auto block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto sq = [scale](T v, int k) { return v * v * scale + (T)(k & 3); };
  auto mx = [](T a, T b) { return a > b ? a : b; };
  auto add = [](T a, T b) { return a + b; };
  T s = transformReduce(x + i % 64, n - 64, 64, sq, add, (T)0);
  T m = transformReduce(x + i % 64, n - 64, 64, [](T v, int) { return -v; }, mx, (T)-1000000);
  __shared__ T part[256];
  part[threadIdx.x] = s - m;
  block.sync();
  out[i] = part[threadIdx.x] + part[(threadIdx.x + 1) % blockDim.x] + (T)cg::this_cluster().block_rank();
}

int main() {
  const int n = 3000;
  std::vector<int> kind(n); std::vector<float> size(n);
  for (int i = 0; i < n; ++i) { kind[i] = (i * 7 + i / 5) % 3; size[i] = 0.5f + (i % 37) * 0.25f; }
  int *d_kind, *d_sides; float *d_size, *d_area; Slot* d_slots;
  cudaMalloc(&d_kind, 4 * n); cudaMalloc(&d_size, 4 * n); cudaMalloc(&d_area, 4 * n); cudaMalloc(&d_sides, 4 * n);
  cudaMalloc(&d_slots, sizeof(Slot) * n);
  cudaMemcpy(d_kind, kind.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_size, size.data(), 4 * n, cudaMemcpyHostToDevice);
  bool ok = true;
  build<<<(n + 127) / 128, 128>>>(d_slots, d_kind, d_size, n);
  areas<<<(n + 127) / 128, 128>>>(d_slots, d_area, d_sides, n);
  std::vector<float> area(n); std::vector<int> sides(n);
  cudaMemcpy(area.data(), d_area, 4 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(sides.data(), d_sides, 4 * n, cudaMemcpyDeviceToHost);
  double as = 0; int ss = 0;
  for (int i = 0; i < n; ++i) {
    float s = size[i];
    float w = kind[i] == 0 ? s * s : kind[i] == 1 ? 0.5f * s * s : 3.0f * s * s;
    int ws = kind[i] == 0 ? 4 : kind[i] == 1 ? 3 : 0;
    if (area[i] != w || sides[i] != ws) ok = false;
    as += area[i]; ss += sides[i];
  }
  printf("virtual area %.3f sides %d\n", as, ss);
  const int L = 4096;
  std::vector<float> xf(L);
  for (int i = 0; i < L; ++i) xf[i] = (float)((i * 53) % 29) * 0.5f - 7.0f;
  float *d_x, *d_out;
  cudaMalloc(&d_x, 4 * L); cudaMalloc(&d_out, 4 * L);
  cudaMemcpy(d_x, xf.data(), 4 * L, cudaMemcpyHostToDevice);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(L / 256); cfg.blockDim = dim3(256); cfg.dynamicSmemBytes = 0; cfg.stream = 0;
  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
  attr[1].id = cudaLaunchAttributePriority;
  attr[1].val.priority = 0;
  cfg.attrs = attr; cfg.numAttrs = 2;
  cudaError_t e = cudaLaunchKernelEx(&cfg, lambdas<float>, (const float*)d_x, d_out, L, 0.5f);
  std::vector<float> out(L);
  cudaMemcpy(out.data(), d_out, 4 * L, cudaMemcpyDeviceToHost);
  std::vector<float> part(L);
  for (int i = 0; i < L; ++i) {
    float s = 0, mxv = -1000000;
    for (int k = 0; k < L - 64; k += 64) {
      float v = xf[i % 64 + k];
      s = s + (v * v * 0.5f + (float)(k & 3));
      mxv = std::max(mxv, -v);
    }
    part[i] = s - mxv;
  }
  double ls = 0;
  for (int i = 0; i < L; ++i) {
    int t = i % 256, b = i / 256;
    float w = part[i] + part[b * 256 + (t + 1) % 256] + (float)(b % 2);
    if (out[i] != w) ok = false;
    ls += out[i];
  }
  printf("launchEx %s lambdas %.2f\n", cudaGetErrorString(e), ls);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
