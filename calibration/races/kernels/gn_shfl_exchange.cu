// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Lanes exchange through shared memory across a __shfl_sync() of the whole warp: the shuffle
// makes each lane wait for every lane of its mask, and is taken to order the lanes' accesses as
// __syncwarp() does (the assumption crates/analysis/src/warp_sync.rs states). The shuffled
// value is the neighbour's index, so the read depends on it.
extern "C" __global__ void gn_shfl_exchange(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    s[l] = in[l] * 3;
    int src = __shfl_sync(0xffffffffu, l, (l + 1) % 32);
    out[l] = s[src];
}
