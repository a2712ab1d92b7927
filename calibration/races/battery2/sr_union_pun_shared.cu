// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A shared union read through the other member: warp 0 writes floats, warp 1 reads the same
// bytes as ints, with no barrier.
union Cell {
    float f[32];
    int i[32];
};
extern "C" __global__ void sr_union_pun_shared(const float *in, int *out) {
    __shared__ Cell c;
    int t = threadIdx.x;
    if (t < 32)
        c.f[t] = in[t] * 0.5f; // <-
    else
        out[t] = c.i[t - 32]; // <-
}
