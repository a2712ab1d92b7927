// expect: none
// launch: --grid 1 --block 96 --arg buf:384:zero
// Three warps fill each shared word: warp 0 its low half with a short, warps 1 and 2 its bytes 2
// and 3 with chars, no barrier between: the accesses touch different bytes.
extern "C" __global__ void gn_short_char_same_word(unsigned *out) {
    __shared__ unsigned w[32];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    if (warp == 0)
        reinterpret_cast<unsigned short *>(w)[lane * 2] = (unsigned short)(lane * 257);
    else
        reinterpret_cast<unsigned char *>(w)[lane * 4 + 1 + warp] = (unsigned char)(lane + warp);
    __syncthreads();
    out[t] = w[lane];
}
