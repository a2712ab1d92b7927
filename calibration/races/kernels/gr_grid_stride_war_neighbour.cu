// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4096 --arg i32:1000
// gn_grid_stride_lookahead reading the next element (x[i + 1]) instead: x[i + 1] is the
// neighbouring thread's in the same iteration, and at a block's edge the next block's (a
// write-after-read nothing orders, across warps and across blocks).
extern "C" __global__ void gr_grid_stride_war_neighbour(int *x, int n) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int next = i + 1 < n ? x[i + 1] : 0;
        x[i] = x[i] + next;
    }
}
