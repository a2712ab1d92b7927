// expect: global_race
// launch: --grid 3 --block 32 --arg buf:4:zero --arg buf:4:zero --arg buf:12:zero
// Thread 0 of each block reads x. Block 0 then publishes a flag (__threadfence() and an atomic);
// block 2, after its read, takes the flag with an atomic and, seeing it set, writes x: ordered
// after block 0's read (release/acquire) and its own, not after block 1's read, which nothing
// orders with block 2. Run in block order, the three reads are mutually unordered when the write
// comes: the shadow must keep all three (with two kept, block 2's read took block 1's place).
extern "C" __global__ void gr_third_read(int *x, unsigned *flag, int *out) {
    if (threadIdx.x != 0) return;
    int b = blockIdx.x;
    int v = *(volatile int *)x;
    out[b] = v;
    if (b == 0) {
        __threadfence();
        atomicExch(flag, 1u);
    }
    if (b == 2) {
        __threadfence();
        if (atomicAdd(flag, 0u) == 1u) x[0] = v + 1;
    }
}
