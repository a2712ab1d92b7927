// expect: race
// launch: --grid 1 --block 128 --arg buf:128:zero
// The kernel of gn_shared_char_lanes_words without the barrier: warp 0 reads whole words while
// warps 1-3 write their bytes of them.
extern "C" __global__ void sr_shared_char_word_read(unsigned *out) {
    __shared__ unsigned words[32];
    unsigned char *bytes = (unsigned char *)words;
    int t = threadIdx.x;
    bytes[(t & 31) * 4 + t / 32] = (unsigned char)t;
    if (t < 32) out[t] = words[t];
}
