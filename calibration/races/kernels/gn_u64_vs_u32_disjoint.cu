// expect: none
// launch: --grid 2 --block 32 --arg buf:512:zero --arg buf:256:zero
// gr_u64_vs_u32_overlap with block 1 reading 32-bit words of the buffer's second half, which
// block 0's 64-bit stores do not touch (read before anything writes them: zeroed bytes).
extern "C" __global__ void gn_u64_vs_u32_disjoint(unsigned long long *w, unsigned *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        w[t] = 0x100000001ull * (t + 1);
    else
        out[t] = ((const unsigned *)w)[64 + 2 * t + 1];
}
