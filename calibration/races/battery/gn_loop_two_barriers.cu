// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero --arg i32:4
// sr_loop_barrier_wrong_place with a barrier after the write and one after the read.
extern "C" __global__ void gn_loop_two_barriers(const float *in, float *out, int iters) {
    __shared__ float s[128];
    int t = threadIdx.x;
    float v = in[t];
    for (int k = 0; k < iters; ++k) {
        s[t] = v;
        __syncthreads();
        v = 0.5f * (v + s[(t + 1) % 128]);
        __syncthreads();
    }
    out[t] = v;
}
