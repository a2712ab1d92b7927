// expect: global_race
// launch: --grid 4 --block 64 --arg buf:4:zero
// Every block's thread 0 writes its block index to one word: different values, a write-write race.
extern "C" __global__ void gr_all_blocks_block_id(int *last) {
    if (threadIdx.x == 0) *last = blockIdx.x; // <-
}
