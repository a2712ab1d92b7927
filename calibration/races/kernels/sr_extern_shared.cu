// expect: race
// launch: --grid 1 --block 128 --dyn-smem 512 --arg buf:512 --arg buf:512:zero
// Dynamic shared memory read by the next warp's threads without a barrier.
extern "C" __global__ void sr_extern_shared(const float *in, float *out) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[(t + 32) % 128];
}
