// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// Twin of sr_struct_shared_field_nobarrier: warp 0 writes field x and warp 1 field y of the same
// 12-byte elements (different bytes of one struct), then a barrier, then both fields are read.
struct P3xy {
    float x, y, z;
};
extern "C" __global__ void gn_struct_shared_fields_split(const float *in, float *out) {
    __shared__ P3xy s[32];
    int t = threadIdx.x;
    if (t < 32)
        s[t].x = in[t];
    else
        s[t - 32].y = in[t];
    __syncthreads();
    out[t] = s[t & 31].x + s[t & 31].y;
}
