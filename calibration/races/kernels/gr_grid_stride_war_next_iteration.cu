// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4096 --arg i32:1000
// A grid-stride loop whose iteration reads the element the thread stride - 1 ahead owns in its
// next iteration (x[i + stride - 1]), then writes its own: the write-after-read crosses loop
// iterations and threads (thread j+stride-1's write in iteration k+1 against thread j's read).
extern "C" __global__ void gr_grid_stride_war_next_iteration(int *x, int n) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int ahead = i + stride - 1 < n ? x[i + stride - 1] : 0;
        x[i] = x[i] * 2 + ahead;
    }
}
