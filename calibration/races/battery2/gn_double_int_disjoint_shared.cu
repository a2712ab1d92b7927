// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:512:zero
// Twin of sr_double_vs_int_half_shared: warp 0 stores d[0..15] as doubles, warp 1 stores ints
// into the halves of d[16..31] only; the 8- and 4-byte views never share a byte before the barrier.
extern "C" __global__ void gn_double_int_disjoint_shared(const int *in, double *out) {
    __shared__ double d[32];
    int *w = reinterpret_cast<int *>(d);
    int t = threadIdx.x;
    if (t < 16)
        d[t] = (double)in[t];
    else if (t >= 32)
        w[32 + (t - 32)] = in[t];
    __syncthreads();
    if (t < 32) out[t] = d[t];
}
