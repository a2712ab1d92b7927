// expect: global_race
// launch: --grid 3 --block 32 --arg buf:256:zero
// The kernel of gn_mod_index_64 with 96 threads: threads i and i + 64 write one element (block 2
// against blocks 0 and 1). A race only some grid sizes have.
extern "C" __global__ void gr_mod_index_96(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[(3 * i) % 64] = i;
}
