// expect: global_race
// launch: --grid 2 --block 32 --arg buf:8:zero
// Block 0 adds to a 64-bit counter with 64-bit atomicAdd; block 1 adds to its low 32-bit half
// with 32-bit atomicAdd. Atomics only fail to race when they are morally strong, which needs
// the two operations to overlap completely (PTX ISA, "Memory Consistency Model", morally
// strong): an 8-byte and a 4-byte atomic on the same bytes race.
extern "C" __global__ void gr_atomic64_vs_atomic32(unsigned long long *c) {
    if (blockIdx.x == 0)
        atomicAdd(c, 1ull << 32);
    else
        atomicAdd((unsigned *)c, 1u);
}
