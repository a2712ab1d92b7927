// expect: none
// launch: --grid 4 --block 32 --arg buf:64:zero
// Blocks 2k and 2k + 1 each write one 16-bit half of the same 32-bit word (lane 0 only), and
// every lane of a block then rereads its own half: different bytes, no race.
extern "C" __global__ void gn_short_halves_blocks(unsigned short *h) {
    if (threadIdx.x == 0) h[blockIdx.x] = (unsigned short)(blockIdx.x + 1);
    __syncthreads();
    if (threadIdx.x == 1) h[8 + blockIdx.x] = h[blockIdx.x] + 1;
}
