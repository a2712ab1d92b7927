// expect: none
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:256:zero
// sr_float4_vs_scalar_shared with the scalars in a second part of the array, after the vectors.
extern "C" __global__ void gn_float4_scalar_disjoint_shared(const float4 *in, float *out) {
    __shared__ float4 s4[40];
    float *s = reinterpret_cast<float *>(s4);
    int t = threadIdx.x;
    if (t < 32)
        s4[t] = in[t];
    else
        s[128 + (t - 32)] = (float)t;
    __syncthreads();
    out[t] = s[t * 2] + s[128 + t % 32];
}
