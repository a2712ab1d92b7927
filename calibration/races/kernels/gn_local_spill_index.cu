// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// gr_local_spill_index with the block's offset in the table: the slot read from local memory is
// the thread's own index in the grid.
extern "C" __global__ void gn_local_spill_index(const int *in, int *out) {
    int loc[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = in[i] & 15;
    for (int k = 0; k < 16; k++) loc[k] = i + k * 128;
    int slot = loc[b] - b * 128;
    out[slot] = i;
}
