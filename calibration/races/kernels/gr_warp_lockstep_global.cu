// expect: global_race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Warp-synchronous exchange through global memory relying on lock step: lane l writes g[l] and
// reads its partner's g[l ^ 1] with no __syncwarp() between.
extern "C" __global__ void gr_warp_lockstep_global(volatile int *g, int *out) {
    int l = threadIdx.x;
    g[l] = l * 7;
    out[l] = g[l ^ 1];
}
