// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:128:zero
// Stores and loads with cache hints (__stcg, __ldcg: cached in L2 only) are still plain accesses:
// block 1 reads what block 0 writes with nothing ordering them.
extern "C" __global__ void gr_stcg_ldcg_across_blocks(int *a, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        __stcg(&a[t], t + 100); // <-
    else
        out[t] = __ldcg(&a[t]); // <-
}
