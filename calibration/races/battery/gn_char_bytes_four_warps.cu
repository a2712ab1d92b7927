// expect: none
// launch: --grid 1 --block 128 --arg buf:128 --arg buf:128:zero
// Four warps write the four bytes of each shared word (byte w of word l by lane l of warp w) with
// no barrier between them: different bytes of one word do not race.
extern "C" __global__ void gn_char_bytes_four_warps(const unsigned char *in, unsigned char *out) {
    __shared__ unsigned char s[128];
    int t = threadIdx.x;
    s[(t % 32) * 4 + t / 32] = in[t] ^ 0x5a;
    __syncthreads();
    out[t] = s[127 - t];
}
