// expect: global_race
// launch: --grid 4 --block 64 --arg buf:16:zero
// Every thread of a block writes its index to the block's one slot (write-write race within the
// block; blocks do not share slots).
extern "C" __global__ void gr_block_slot_all(int *out) {
    out[blockIdx.x] = threadIdx.x;
}
