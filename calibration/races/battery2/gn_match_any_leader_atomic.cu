// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:64:zero
// Warp-aggregated atomics: __match_any_sync groups the lanes with the same bin, the lowest lane
// of each group adds the group's size with atomicAdd.
extern "C" __global__ void gn_match_any_leader_atomic(const int *in, int *bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = in[i] & 15;
    unsigned peers = __match_any_sync(0xffffffffu, b);
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(&bins[b], __popc(peers));
}
