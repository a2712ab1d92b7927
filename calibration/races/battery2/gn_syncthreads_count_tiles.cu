// expect: none
// launch: --grid 2 --block 64 --arg buf:2048 --arg buf:8:zero --arg i32:4
// Counts the positive elements of `tiles` tiles of 64 with __syncthreads_count() as the only
// barrier of a loop every thread runs the same number of times; thread 0 of each block writes its
// block's count.
extern "C" __global__ void gn_syncthreads_count_tiles(const int *in, int *out, int tiles) {
    int total = 0;
    for (int k = 0; k < tiles; ++k) {
        int i = (blockIdx.x * tiles + k) * blockDim.x + threadIdx.x;
        total += __syncthreads_count(in[i] > 0);
    }
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
