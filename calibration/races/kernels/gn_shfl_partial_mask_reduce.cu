// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:16:zero
// Lanes 0-15 of each warp reduce with __shfl_down_sync(0x0000ffff, ...) inside a branch only
// they take; lane 0 adds the warp's sum with an atomic. __activemask() names the same lanes.
__global__ void shfl_partial_mask_reduce(const int *in, int *out) {
    int t = threadIdx.x, lane = t % 32;
    int v = in[t];
    if (lane < 16) {
        unsigned m = __activemask();
        for (int o = 8; o > 0; o /= 2) v += __shfl_down_sync(0x0000ffffu, v, o);
        if (lane == 0) atomicAdd(&out[t / 32], v + (int)(m & 1u));
    }
}
