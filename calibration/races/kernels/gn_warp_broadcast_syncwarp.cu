// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// The kernel of sr_warp_broadcast_nosync with __syncwarp() between the store and the reads.
extern "C" __global__ void gn_warp_broadcast_syncwarp(const int *in, int *out) {
    __shared__ int slot[2];
    int t = threadIdx.x, w = t / 32;
    if ((t & 31) == 0) slot[w] = in[t] * 2;
    __syncwarp();
    out[t] = slot[w] + t;
}
