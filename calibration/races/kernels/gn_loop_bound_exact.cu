// expect: none
// launch: --grid 4 --block 32 --arg buf:2048:zero
// The twin of gr_loop_last_iteration with the bound `<`: each block stays in its segment.
extern "C" __global__ void gn_loop_bound_exact(int *a) {
    int base = blockIdx.x * 128;
    for (int k = 0; k < 4; k++) {
        int j = base + k * 32 + threadIdx.x;
        if (j < 512) a[j] = blockIdx.x * 1000 + k;
    }
}
