// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 2i and 2i + 1 store the same value to g[i] with one instruction: a same-value write, not
// reported by default.
extern "C" __global__ void gn_same_inst_global_same_value(int *g) {
    int l = threadIdx.x;
    g[l / 2] = l / 2 + 1;
}
