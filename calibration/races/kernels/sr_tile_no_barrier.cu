// expect: race
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// Shared tile read back reversed without a barrier after the writes.
extern "C" __global__ void sr_tile_no_barrier(const float *in, float *out) {
    __shared__ float s[64];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    out[i] = s[63 - t];
}
