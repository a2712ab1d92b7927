// expect: global_race
// launch: --grid 1 --block 96 --arg buf:4:zero --arg buf:8:zero
// Warp 1 reads x, a barrier, then warp 0 reads x and warp 2 reads and writes it, no barrier
// between: warp 2's write races with warp 0's read. The shadow must keep warp 0's read when
// warp 2's read comes (the first read, warp 1's, is ordered by the barrier).
extern "C" __global__ void gr_second_read(int *x, int *out) {
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (w == 1 && lane == 0) out[0] = x[0];
    __syncthreads();
    if (w == 0 && lane == 0) out[1] = x[0] + 1;
    if (w == 2 && lane == 0) {
        int v = x[0];
        x[0] = v + 1;
    }
}
