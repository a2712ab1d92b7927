// expect: global_race
// launch: --grid 2 --block 96 --arg buf:1024:zero
// Blocks index with a constant stride of 64: out[blockIdx.x * 64 + t]. With 96-thread blocks,
// threads 64-95 of block 0 write block 1's first 32 elements.
extern "C" __global__ void gr_fixed_stride_block96(int *out) {
    int t = threadIdx.x;
    out[blockIdx.x * 64 + t] = blockIdx.x * 1000 + t; // <-
}
