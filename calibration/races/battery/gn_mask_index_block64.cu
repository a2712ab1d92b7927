// expect: none
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:512:zero
// A kernel written for 64-thread blocks: s[t & 63]. With 64 threads each element has one writer.
extern "C" __global__ void gn_mask_index_block64(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t & 63] = in[t];
    __syncthreads();
    out[t] = s[63 - (t & 63)];
}
