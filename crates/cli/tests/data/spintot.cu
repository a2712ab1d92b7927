// A decoupled look-back in small: each block takes a tile by a ticket, warp 0 publishes the
// tile's total and spins (__any_sync) until its predecessor has published, then every warp reads
// the warp totals, declared after a 4-byte ticket copy.
__global__ void spinTot(const int* in, int* out, unsigned long long* status, unsigned* ticket) {
  __shared__ int tileId, warpTot[8];
  if (threadIdx.x == 0) tileId = atomicAdd(ticket, 1u);
  __syncthreads();
  int t = tileId, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int x = in[t * 256 + threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warpTot[warp] = x;
  if (warp == 0 && t > 0) {
    volatile unsigned long long* vs = status;
    unsigned long long s = vs[t - 1];
    while (__any_sync(0xffffffffu, (s >> 32) == 0)) s = vs[t - 1];
  }
  if (threadIdx.x == 0) atomicExch(&status[t], 1ull << 32);
  __syncthreads();
  int before = 0, total = 0;
  for (int w = 0; w < 8; ++w) {
    if (w < warp) before += warpTot[w];
    total += warpTot[w];
  }
  out[t * 256 + threadIdx.x] = before + x + total;
}
