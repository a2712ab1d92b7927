// expect: global_race
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:256:zero
// atomicAdd_block() from two blocks on one global counter: a .cta-scoped atomic is atomic only
// with respect to its own block, so the two blocks' read-modify-writes race.
extern "C" __global__ void gr_atomic_block_scope_across_blocks(int *count, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd_block(count, 1); // <-
}
