// expect: global_race
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:256:zero
// Block 0 swaps the word atomically, block 1 stores it plainly: atomic against plain races.
extern "C" __global__ void gr_exch_vs_store(int *w, int *old) {
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0)
            old[0] = atomicExch(w, 5);
        else
            *w = 7;
    }
}
