// expect: global_race
// launch: --grid 2 --block 64 --arg buf:768:zero --arg alias:0+256
// Two output parameters that overlap at launch (`b` starts 64 ints into `a`): block 0 writes
// a[0..63] and a[64..127], block 1 writes b[0..63], which is a[64..127]: only the second store
// of block 0 overlaps.
extern "C" __global__ void gr_alias_two_outputs_blocks(int *a, int *b) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        a[t] = t;
        a[t + 64] = -t; // <-
    } else {
        b[t] = t * 7; // <-
    }
}
