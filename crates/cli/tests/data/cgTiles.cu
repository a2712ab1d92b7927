// Two kernels in one module. `tiles` reduces over 64-thread tiles of a 128-thread block with
// cooperative groups (block_tile_memory: the tiles' barrier and exchange slots are in the block's
// reserved shared memory, %reserved_smem_offset_1; a warp waits for its partner warp with an
// ld.acquire spin loop; shf.l.wrap builds the barrier masks). `fetch` reads a layered texture
// (`tex.a2d`), which the emulator does not model: its launch is refused with the reason, and `tiles` still runs.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *out) {
  __shared__ cg::block_tile_memory<128> scratch;
  auto cta = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<64>(cta);
  int v = cg::reduce(tile, in[blockIdx.x * 128 + threadIdx.x], cg::plus<int>());
  if (tile.thread_rank() == 0) out[blockIdx.x * 2 + tile.meta_group_rank()] = v;
}

__global__ void fetch(cudaTextureObject_t t, float *out) {
  float4 v = tex2DLayered<float4>(t, threadIdx.x + 0.5f, 0.5f, 1);
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main() {
  const int blocks = 3;
  int h[blocks * 128], *d_in, *d_out, r[blocks * 2] = {};
  for (int i = 0; i < blocks * 128; i++) h[i] = i;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof r);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  tiles<<<blocks, 128>>>(d_in, d_out);
  cudaError_t e = cudaGetLastError();
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  for (int g = 0; g < blocks * 2; g++) {
    int want = 0;
    for (int i = 64 * g; i < 64 * g + 64; i++) want += i;
    printf("tile %d: %d (expect %d)\n", g, r[g], want);
    ok = ok && r[g] == want;
  }
  float *d_f;
  cudaMalloc(&d_f, 32 * sizeof(float));
  fetch<<<1, 32>>>(0, d_f);
  printf("fetch launch: %d\n", (int)cudaGetLastError());
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
