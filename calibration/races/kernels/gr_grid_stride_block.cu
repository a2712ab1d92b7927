// expect: global_race
// launch: --grid 4 --block 32 --arg buf:1024 --arg buf:1024:zero --arg i32:256
// A grid-stride loop that strides by the block instead of the grid: block b starts at b*32 and
// steps 32, so blocks 0 and 1 both write element 32 (and more), with values that differ by
// block: a write-write race between blocks (gn_grid_stride strides by the grid).
extern "C" __global__ void gr_grid_stride_block(const int *in, int *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        out[i] = in[i] * 2 + blockIdx.x;
}
