// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:4:zero
// Twin of gr_redux_leader_plain_accumulate: lane 0 adds the warp's sum with atomicAdd.
extern "C" __global__ void gn_redux_leader_atomic_accumulate(const unsigned *in, unsigned *total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = __reduce_add_sync(0xffffffffu, in[i]);
    if ((threadIdx.x & 31) == 0) atomicAdd(total, s);
}
