// expect: global_race
// launch: --grid 2 --block 32 --arg buf:8:zero --arg buf:128:zero
// Block 0 counts in a 64-bit word with atomicAdd(unsigned long long *); block 1's thread 0 clears
// the word's upper 32 bits with a plain int store: the store overlaps the atomics' bytes.
extern "C" __global__ void gr_ull_atomic_vs_int_store(unsigned long long *c, int *out) {
    if (blockIdx.x == 0) {
        atomicAdd(c, 1ull << 32); // <-
    } else if (threadIdx.x == 0) {
        reinterpret_cast<int *>(c)[1] = 0; // <-
    }
}
