// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero
// Thread i writes a[(3 i) % 64]: for 64 threads a permutation (3 is prime to 64). The same kernel
// with 96 threads is gr_mod_index_96.
extern "C" __global__ void gn_mod_index_64(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[(3 * i) % 64] = i;
}
