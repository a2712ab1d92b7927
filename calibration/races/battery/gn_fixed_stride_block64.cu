// expect: none
// launch: --grid 2 --block 64 --arg buf:1024:zero
// Blocks index with a constant stride of 64: out[blockIdx.x * 64 + t]. With 64-thread blocks the
// blocks' ranges meet.
extern "C" __global__ void gn_fixed_stride_block64(int *out) {
    int t = threadIdx.x;
    out[blockIdx.x * 64 + t] = blockIdx.x * 1000 + t;
}
