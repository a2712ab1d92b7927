// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// A kernel written for 64-thread blocks: s[t & 63]. With 128 threads, threads t and t+64 write s[t
// & 63] with different values.
extern "C" __global__ void sr_mask_index_block128(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t & 63] = in[t]; // <-
    __syncthreads();
    out[t] = s[63 - (t & 63)];
}
