// expect: none
// launch: --grid 4 --block 32 --arg buf:128:zero
// Packed char writes into one 32-bit word per lane from four blocks: block b writes byte b of
// every word. Different bytes of one word do not race.
extern "C" __global__ void gn_char_bytes_blocks(unsigned *words) {
    int t = threadIdx.x;
    unsigned char *bytes = (unsigned char *)(words + t);
    bytes[blockIdx.x] = (unsigned char)(t + blockIdx.x);
}
