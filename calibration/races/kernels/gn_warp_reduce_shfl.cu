// expect: none
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:8:zero
// A block reduction with __shfl_down_sync() within warps, one shared slot per warp and a barrier
// before the first warp combines them (race-free).
extern "C" __global__ void gn_warp_reduce_shfl(const int *in, int *out) {
    __shared__ int partial[4];
    int t = threadIdx.x;
    int v = in[blockIdx.x * 128 + t];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0) partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < 4 ? partial[t] : 0;
        for (int o = 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0) out[blockIdx.x] = v;
    }
}
