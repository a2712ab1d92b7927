// expect: none
// launch: --grid 2 --block 256 --arg buf:2048 --arg buf:8:zero
// A block sum: each warp reduces with __shfl_down_sync, lane 0 writes the warp's sum to shared
// memory, a barrier, and warp 0 reduces the eight sums with shuffles again.
extern "C" __global__ void gn_shfl_block_reduce(const float *in, float *out) {
    __shared__ float warp_sum[8];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) warp_sum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < 8 ? warp_sum[lane] : 0.0f;
        for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
