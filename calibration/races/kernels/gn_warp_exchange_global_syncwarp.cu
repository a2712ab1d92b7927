// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// gr_warp_lockstep_global with __syncwarp() between the write and the partner's read.
extern "C" __global__ void gn_warp_exchange_global_syncwarp(int *g, int *out) {
    int l = threadIdx.x;
    g[l] = l * 7;
    __syncwarp();
    out[l] = g[l ^ 1];
}
