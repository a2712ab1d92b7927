// expect: global_race
// launch: --grid 4 --block 32 --arg buf:2048:zero
// Each block fills its 128-int segment in a loop of stride 32, but the bound is `<=`: the last
// iteration (k = 4) writes the first 32 ints of the next block's segment.
extern "C" __global__ void gr_loop_last_iteration(int *a) {
    int base = blockIdx.x * 128;
    for (int k = 0; k <= 4; k++) {
        int j = base + k * 32 + threadIdx.x;
        if (j < 512) a[j] = blockIdx.x * 1000 + k;
    }
}
