// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:4:zero
// Each warp sums its elements with __reduce_add_sync and lane 0 adds the sum into one global
// total with a plain `+=`: four warps of two blocks read-modify-write one word.
extern "C" __global__ void gr_redux_leader_plain_accumulate(const unsigned *in, unsigned *total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = __reduce_add_sync(0xffffffffu, in[i]);
    if ((threadIdx.x & 31) == 0) *total += s; // <-
}
