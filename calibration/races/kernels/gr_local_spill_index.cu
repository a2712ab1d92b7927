// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// The global slot each thread writes comes out of a per-thread table in local memory, read at an
// index taken from the input (so the table stays in local memory: ld.local at a run-time
// address). The entry read is always threadIdx.x: threads of the two blocks with the same
// threadIdx.x write the same word.
extern "C" __global__ void gr_local_spill_index(const int *in, int *out) {
    int loc[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = in[i] & 15;
    for (int k = 0; k < 16; k++) loc[k] = threadIdx.x + k * 64;
    int slot = loc[b] - b * 64;
    out[slot] = i;
}
