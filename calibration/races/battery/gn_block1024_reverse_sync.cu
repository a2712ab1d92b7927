// expect: none
// launch: --grid 1 --block 1024 --arg buf:4096 --arg buf:4096:zero
// sr_block1024_reverse_nosync with the barrier.
extern "C" __global__ void gn_block1024_reverse_sync(const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[1023 - t];
}
