// expect: none
// launch: --grid 2 --block 32 --arg buf:512:zero
// Block 0 stores int2s over ints 0-63, block 1 stores single ints 64-95: vector and scalar stores
// side by side, not overlapping.
extern "C" __global__ void gn_int2_vs_int_global_disjoint(int *a) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        reinterpret_cast<int2 *>(a)[t] = make_int2(t, -t);
    else
        a[64 + t] = t * 3;
}
