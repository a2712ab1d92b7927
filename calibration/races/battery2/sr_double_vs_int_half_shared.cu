// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:512:zero
// Warp 0 stores doubles d[t]; warp 1 stores an int into the upper half of d[t - 32] (the same
// shared bytes through a 32-bit view) with no barrier: an 8-byte and a 4-byte store overlap.
extern "C" __global__ void sr_double_vs_int_half_shared(const int *in, double *out) {
    __shared__ double d[32];
    int *w = reinterpret_cast<int *>(d);
    int t = threadIdx.x;
    if (t < 32)
        d[t] = (double)in[t]; // <-
    else
        w[2 * (t - 32) + 1] = in[t]; // <-
    __syncthreads();
    if (t < 32) out[t] = d[t];
}
