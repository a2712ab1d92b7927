// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg i32:2
// Whole blocks return before a barrier (a block-uniform condition): no divergence, and the
// exchange after the barrier is ordered (race-free).
extern "C" __global__ void gn_block_return(int *out, int nb) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (blockIdx.x >= nb) return;
    s[t] = t;
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[63 - t];
}
