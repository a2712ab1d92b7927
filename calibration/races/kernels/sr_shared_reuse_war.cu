// expect: race
// launch: --grid 2 --block 128 --arg buf:512 --arg buf:1024:zero
// The kernel of gn_shared_reuse_barrier without the barrier after every thread reads s[0]: the
// reuse writes s[127 - t] (thread 127 writes s[0]) while other warps still read s[0].
extern "C" __global__ void sr_shared_reuse_war(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int w = 64; w > 0; w >>= 1) {
        if (t < w) s[t] += s[t + w];
        __syncthreads();
    }
    float total = s[0];
    s[127 - t] = in[t] / (total + 1.0f);
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t];
}
