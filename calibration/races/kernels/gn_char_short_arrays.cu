// expect: none
// launch: --grid 2 --block 64 --arg buf:128:zero --arg buf:256:zero --arg buf:1024:zero
// char, short and double arrays, each thread its own element: neighbouring bytes and half-words
// of different threads share a word but not a byte.
__global__ void char_short_arrays(char *c, short *s, double *d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = (char)(i & 0x7f);
    s[i] = (short)(i * 3);
    d[i] = i * 0.25;
}
