// expect: global_race
// launch: --grid 4 --block 1 --arg buf:1024:zero
// Each block's single thread walks a pointer over 32 elements starting at 30 * blockIdx.x: the
// last two elements of one block's run are the first two of the next block's.
extern "C" __global__ void gr_ptr_walk_overlap(int *a) {
    int *p = a + 30 * blockIdx.x;
    for (int k = 0; k < 32; ++k) *p++ = blockIdx.x;
}
