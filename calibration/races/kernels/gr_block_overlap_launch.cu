// expect: global_race
// launch: --grid 2 --block 128 --arg buf:1024:zero
// Each block writes a[blockIdx.x * 64 + threadIdx.x]: race-free with 64 threads per block
// (gn_block_overlap_launch), but with 128 the blocks' ranges overlap.
__global__ void block_overlap_launch(int *a) {
    a[blockIdx.x * 64 + threadIdx.x] = blockIdx.x;
}
