// expect: global_race
// launch: --grid 2 --block 32 --arg buf:512:zero
// Block 0 stores an int4 per thread; block 1 stores int 4k+2 of the same buffer: each scalar store
// lands inside one of block 0's vectors.
extern "C" __global__ void gr_int4_vs_int_global(int *a) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        reinterpret_cast<int4 *>(a)[t] = make_int4(t, t, t, t); // <-
    else
        a[t * 4 + 2] = -t - 1; // <-
}
