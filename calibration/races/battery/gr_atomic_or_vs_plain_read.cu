// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:128:zero
// Block 0 sets bits with atomicOr while block 1 reads the same words with plain loads: an atomic
// and a plain access of different blocks race.
extern "C" __global__ void gr_atomic_or_vs_plain_read(unsigned *bits, unsigned *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        atomicOr(&bits[t], 1u << (t % 32)); // <-
    else
        out[t] = bits[t]; // <-
}
