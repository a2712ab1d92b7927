// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// gr_shfl_half_mask_global with every lane in the shuffle (mask 0xffffffff): the warp collective
// orders each lane's earlier write before every lane's later read (docs/check.md, "Warp
// collectives").
extern "C" __global__ void gn_shfl_full_mask_global(int *data, int *out) {
    int t = threadIdx.x;
    data[t] = t * 11;
    int v = __shfl_xor_sync(0xffffffffu, t, 1);
    out[t] = data[t ^ 16] + v;
}
