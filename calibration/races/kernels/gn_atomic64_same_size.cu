// expect: none
// launch: --grid 2 --block 32 --arg buf:8:zero
// gr_atomic64_vs_atomic32 with both blocks using the 64-bit atomicAdd on the whole counter:
// atomics of the same size on the same bytes do not race.
extern "C" __global__ void gn_atomic64_same_size(unsigned long long *c) {
    if (blockIdx.x == 0)
        atomicAdd(c, 1ull << 32);
    else
        atomicAdd(c, 1ull);
}
