// expect: race
// launch: --grid 2 --block 256 --arg buf:2048 --arg buf:8:zero
// gn_shfl_block_reduce without the barrier: warp 0 reads the other warps' sums before they are
// known to be written (the shuffles synchronise lanes of one warp only).
extern "C" __global__ void sr_shfl_block_reduce_nobarrier(const float *in, float *out) {
    __shared__ float warp_sum[8];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) warp_sum[warp] = v; // <-
    if (warp == 0) {
        v = lane < 8 ? warp_sum[lane] : 0.0f; // <-
        for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
