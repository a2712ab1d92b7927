// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero
// Packed writes into one 32-bit word per lane from two blocks: block 0 writes byte 1 with a char
// store, block 1 writes bytes 0-1 with a short store. Byte 1 is written by both.
extern "C" __global__ void gr_char_short_overlap_blocks(unsigned *words) {
    int t = threadIdx.x;
    unsigned char *bytes = (unsigned char *)(words + t);
    if (blockIdx.x == 0)
        bytes[1] = (unsigned char)(t + 1);
    else
        *(unsigned short *)bytes = (unsigned short)(t * 3);
}
