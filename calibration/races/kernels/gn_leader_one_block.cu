// expect: none
// launch: --grid 1 --block 64 --arg buf:4:zero
// Thread 0 of each block writes its block index to one word: with one block, one writer.
// gr_leader_two_blocks launches it with two.
extern "C" __global__ void gn_leader_one_block(int *owner) {
    if (threadIdx.x == 0) *owner = blockIdx.x + 1;
}
