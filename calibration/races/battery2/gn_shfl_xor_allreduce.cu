// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// A butterfly all-reduce in registers with __shfl_xor_sync; every lane writes its own element of
// the result (no shared memory, no overlap).
extern "C" __global__ void gn_shfl_xor_allreduce(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    out[i] = v;
}
