// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero --arg i32:5
// Two barriers in a loop whose trip count is a kernel parameter: every thread runs the same number
// of iterations.
extern "C" __global__ void gn_barrier_loop_param(const float *in, float *out, int n) {
    __shared__ float s[64];
    int t = threadIdx.x;
    float v = in[blockIdx.x * 64 + t];
    for (int i = 0; i < n; ++i) {
        s[t] = v;
        __syncthreads();
        v = 0.25f * (s[(t + 63) % 64] + 2.0f * v + s[(t + 1) % 64]);
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = v;
}
