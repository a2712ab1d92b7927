// expect: none
// launch: --grid 1 --block 128 --dyn-smem 512 --arg buf:512 --arg buf:512:zero
// The same with a barrier between.
extern "C" __global__ void gn_extern_shared_sync(const float *in, float *out) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t + 32) % 128];
}
