// expect: none
// launch: --grid 4 --block 64 --arg buf:1280 --arg buf:1024:zero
// Every thread of every block reads overlapping windows of one input and the same first eight
// elements: reads never race with reads.
extern "C" __global__ void gn_read_read_global(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = in[i] + in[i + 1] + in[i + 32] + in[i + 64];
    for (int k = 0; k < 8; ++k) s += in[k];
    out[i] = s;
}
