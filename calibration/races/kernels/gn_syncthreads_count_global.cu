// expect: none
// launch: --grid 2 --block 128 --arg buf:1024:zero --arg buf:1024:zero
// __syncthreads_count() orders global memory within a block: each thread writes its element, the
// barrier, then reads its mirror's element of the same block.
extern "C" __global__ void gn_syncthreads_count_global(int *g, int *out) {
    int t = threadIdx.x, b = blockIdx.x * 128;
    g[b + t] = t;
    int n = __syncthreads_count(t % 3 == 0);
    out[b + t] = g[b + 127 - t] + n;
}
