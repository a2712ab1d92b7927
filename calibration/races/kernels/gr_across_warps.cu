// expect: global_race
// launch: --grid 1 --block 128 --arg buf:512:zero --arg buf:512:zero
// Each thread reads the element written by a thread of the next warp, with no barrier.
extern "C" __global__ void gr_across_warps(int *a, int *out) {
    int t = threadIdx.x;
    a[t] = t * 3;
    out[t] = a[(t + 32) % blockDim.x];
}
