// expect: global_race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 2i and 2i + 1 store different values to g[i] with one instruction. CUDA makes one of the
// two writes land, which one is undefined: a write-write race inside one store (as for shared).
extern "C" __global__ void gr_same_inst_global_ww(int *g) {
    int l = threadIdx.x;
    g[l / 2] = l;
}
