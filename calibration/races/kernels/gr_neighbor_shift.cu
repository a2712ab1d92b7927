// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1024 --arg i32:256
// Each thread shifts its right neighbour's element into its own: the neighbour's write may come
// first (a race between threads of one warp, of two warps and, at block edges, of two blocks).
extern "C" __global__ void gr_neighbor_shift(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) a[i] = a[i + 1] + 1;
}
