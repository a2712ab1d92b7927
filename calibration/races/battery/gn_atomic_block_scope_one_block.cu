// expect: none
// launch: --grid 2 --block 64 --arg buf:8:zero --arg buf:512:zero
// atomicAdd_block() on a counter per block: only threads of one block touch each counter.
extern "C" __global__ void gn_atomic_block_scope_one_block(int *count, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd_block(&count[blockIdx.x], 1);
}
