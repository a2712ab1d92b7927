// Kernel templates and lambdas: `__device__` lambdas written in host code (captures by value)
// passed to a map kernel template and a grid-stride fold template with a combining lambda; a
// generic lambda inside a kernel called through a device function template; `assert` on
// invariants that hold; `printf` from one block's four warps in turn (one warp a barrier phase, so
// the lines come in one order). Checked against the host; prints sums.
#include <cassert>
#include <cstdio>
#include <vector>

template <class F>
__global__ void map(const int* in, int* out, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = f(in[i], i);
}

template <class T, class F, class G>
__global__ void fold(const int* in, int n, T init, F f, G combine, T* out) {
  __shared__ T part[256];
  T acc = init;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc = combine(acc, f(in[i]));
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] = combine(part[threadIdx.x], part[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

template <class Op>
__device__ long long apply_all(const int* v, int k, Op op) {
  long long r = 0;
  for (int j = 0; j < k; ++j) r = op(r, v[j], j);
  return r;
}

__global__ void inner(const int* in, long long* out, int n, int k) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t * k >= n) return;
  int base = t * k;
  int m = (n - base) < k ? (n - base) : k;
  auto poly = [base](auto acc, auto v, int j) { return acc * 3 + (long long)v * ((base + j) % 7 + 1); };
  long long r = apply_all(in + base, m, poly);
  assert(m > 0 && m <= k);
  assert(r != 0x7fffffffffffffffLL);
  out[t] = r;
}

__global__ void talk(const int* in, int n) {
  int w = threadIdx.x / 32, lane = threadIdx.x & 31;
  for (int phase = 0; phase < (int)blockDim.x / 32; ++phase) {
    if (w == phase && (lane % 3 == 0 || lane == 31)) {
      int i = (blockIdx.x * blockDim.x + threadIdx.x) * 37 % n;
      printf("block %d warp %d lane %2d in[%d] = %d\n", blockIdx.x, w, lane, i, in[i]);
    }
    __syncthreads();
  }
}

int main() {
  const int N = 1 << 21, K = 24;
  std::vector<int> in(N);
  unsigned s = 2024;
  for (auto& v : in) { s = s * 1664525u + 1013904223u; v = (int)(s >> 11) - (1 << 20); }
  int *din, *dout; long long *dfold, *dinner; unsigned* dmax;
  cudaMalloc(&din, N * 4); cudaMalloc(&dout, N * 4); cudaMalloc(&dfold, 120 * 8);
  cudaMalloc(&dinner, (N / K + 1) * 8); cudaMalloc(&dmax, 120 * 4);
  cudaMemcpy(din, in.data(), N * 4, cudaMemcpyHostToDevice);
  int mul = 5, off = -17;
  auto affine = [=] __device__(int v, int i) { return (v * mul + off) ^ (i & 0xff); };
  map<<<240, 256>>>(din, dout, N, affine);
  auto clampabs = [=] __device__(int v, int i) { int a = v < 0 ? -v : v; return a > 500000 ? 500000 + (i & 1) : a; };
  map<<<240, 256>>>(dout, dout, N, clampabs);
  fold<<<120, 256>>>(dout, N, 0LL, [] __device__(int v) { return (long long)v * v; },
                     [] __device__(long long a, long long b) { return a + b; }, dfold);
  fold<<<120, 256>>>(din, N, 0u, [] __device__(int v) { return (unsigned)v * 2654435761u; },
                     [] __device__(unsigned a, unsigned b) { return a > b ? a : b; }, dmax);
  inner<<<(N / K + 255) / 256, 256>>>(din, dinner, N, K);
  talk<<<1, 128>>>(din, N);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<int> out(N);
  std::vector<long long> gf(120), gi(N / K + 1);
  std::vector<unsigned> gm(120);
  cudaMemcpy(out.data(), dout, N * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gf.data(), dfold, 120 * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(gm.data(), dmax, 120 * 4, cudaMemcpyDeviceToHost);
  int nin = (N + K - 1) / K;
  cudaMemcpy(gi.data(), dinner, nin * 8, cudaMemcpyDeviceToHost);
  int bad = 0;
  long long sq = 0, gsq = 0;
  unsigned mx = 0, gmx = 0;
  for (int i = 0; i < N; ++i) {
    int a = (in[i] * mul + off) ^ (i & 0xff);
    a = a < 0 ? -a : a;
    a = a > 500000 ? 500000 + (i & 1) : a;
    if (a != out[i]) ++bad;
    sq += (long long)a * a;
    unsigned h = (unsigned)in[i] * 2654435761u;
    mx = mx > h ? mx : h;
  }
  for (int b = 0; b < 120; ++b) { gsq += gf[b]; gmx = gmx > gm[b] ? gmx : gm[b]; }
  if (sq != gsq || mx != gmx) ++bad;
  long long isum = 0;
  for (int t = 0; t < nin; ++t) {
    int base = t * K, m = (N - base) < K ? (N - base) : K;
    long long r = 0;
    for (int j = 0; j < m; ++j) r = r * 3 + (long long)in[base + j] * ((base + j) % 7 + 1);
    if (r != gi[t]) ++bad;
    isum += gi[t];
  }
  printf("map+fold: squares %lld max hash %08x\n", gsq, gmx);
  printf("inner: sum %lld\n", isum);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
