// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:256:zero
// Block 0 stores 64-bit words; block 1 reads the upper 32-bit half of the same words with 32-bit
// loads. The accesses overlap in 4 bytes and nothing orders the two blocks.
extern "C" __global__ void gr_u64_vs_u32_overlap(unsigned long long *w, unsigned *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        w[t] = 0x100000001ull * (t + 1);
    else
        out[t] = ((const unsigned *)w)[2 * t + 1];
}
