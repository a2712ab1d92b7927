// expect: none
// launch: --grid 1 --block 128 --arg buf:128:zero
// Threads t, t + 32, t + 64 and t + 96 (four different warps) each write one byte of the same
// shared word, then after a barrier thread t reads the whole word.
extern "C" __global__ void gn_shared_char_lanes_words(unsigned *out) {
    __shared__ unsigned words[32];
    unsigned char *bytes = (unsigned char *)words;
    int t = threadIdx.x;
    bytes[(t & 31) * 4 + t / 32] = (unsigned char)t;
    __syncthreads();
    if (t < 32) out[t] = words[t];
}
