// expect: global_race
// launch: --grid 2 --block 64 --arg buf:256 --arg buf:256:zero
// Block 0 writes data that block 1 reads through the read-only path (__ldg, ld.global.nc) in the
// same launch: the read is not ordered after the write (and the non-coherent path may return a
// stale value even if it were).
extern "C" __global__ void gr_ldg_other_block(int *data, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        data[t] = t * 5;
    else
        out[t] = __ldg(data + (63 - t));
}
