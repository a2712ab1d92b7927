// A block zeroes its buffer and passes a barrier; each warp then fills its own slice with
// cg::memcpy_async and, after cg::wait (no barrier), loops as many times as its lane's copied
// value says. The machine code's flow must not read the zeros the barrier left for the bytes the
// warp's own copy wrote.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void k(const int* in, int* out) {
  __shared__ alignas(16) int buf[128];
  buf[threadIdx.x] = 0;
  __syncthreads();
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int w = threadIdx.x / 32;
  cg::memcpy_async(warp, buf + w * 32, in + blockIdx.x * 128 + w * 32, sizeof(int) * 32);
  cg::wait(warp);
  int v = buf[threadIdx.x];
  int s = 0;
  for (int i = 0; i < v; ++i) s = (s * 31) ^ (i + (int)threadIdx.x);
  out[blockIdx.x * 128 + threadIdx.x] = s;
}

int main() {
  int h[128 * 4];
  for (int i = 0; i < 512; ++i) h[i] = (i * 7) % 23;
  int *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<4, 128>>>(d, o);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  long long t = 0;
  for (int i = 0; i < 512; ++i) t += h[i];
  printf("sum %lld\n", t);
  return 0;
}
