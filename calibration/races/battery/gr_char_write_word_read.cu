// expect: global_race
// launch: --grid 4 --block 32 --arg buf:128 --arg buf:128:zero
// As gn_char_rmw_four_blocks, but block 0 then reads each word whole: the 4-byte load covers the
// bytes blocks 1-3 write.
extern "C" __global__ void gr_char_write_word_read(unsigned char *a, unsigned *out) {
    int t = threadIdx.x;
    a[t * 4 + blockIdx.x] = (unsigned char)(t + blockIdx.x); // <-
    if (blockIdx.x == 0) out[t] = reinterpret_cast<const unsigned *>(a)[t]; // <-
}
