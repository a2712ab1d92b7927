// expect: global_race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:256:zero
// The global-memory twin of sr_syncwarp_other_warp: a scratch buffer exchanged between the two
// warps of a block with __syncwarp() between.
extern "C" __global__ void gr_syncwarp_global_other_warp(int *scratch, int *out) {
    int t = threadIdx.x;
    scratch[t] = t * t; // <-
    __syncwarp();
    out[t] = scratch[t ^ 32]; // <-
}
