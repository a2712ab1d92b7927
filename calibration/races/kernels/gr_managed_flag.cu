// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero
// A `__managed__` variable written by thread 0 of each block (different values) and read by every
// thread of the other block with no ordering.
__managed__ int last_block;
__global__ void managed_flag(int *out) {
    if (threadIdx.x == 0) last_block = blockIdx.x + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = last_block;
}
