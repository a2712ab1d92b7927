// expect: global_race
// launch: --grid 4 --block 32 --arg buf:64:zero
// Blocks 0 and 2 (and 1 and 3) write different values to one slot.
extern "C" __global__ void gr_block_slot(int *out) {
    if (threadIdx.x == 0) out[blockIdx.x % 2] = blockIdx.x;
}
