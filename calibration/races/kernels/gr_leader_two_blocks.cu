// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4:zero
// gn_leader_one_block's kernel with two blocks: both leaders write different values to one word.
extern "C" __global__ void gr_leader_two_blocks(int *owner) {
    if (threadIdx.x == 0) *owner = blockIdx.x + 1;
}
