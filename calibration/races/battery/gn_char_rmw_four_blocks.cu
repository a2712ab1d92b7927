// expect: none
// launch: --grid 4 --block 32 --arg buf:128
// Four blocks each increment one byte of every word (block b byte b) in place: neighbouring bytes
// of different blocks, each read and written by its own thread only.
extern "C" __global__ void gn_char_rmw_four_blocks(unsigned char *a) {
    int j = threadIdx.x * 4 + blockIdx.x;
    a[j] = a[j] + 1;
}
