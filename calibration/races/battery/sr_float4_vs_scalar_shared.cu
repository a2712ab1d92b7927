// expect: race
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:256:zero
// Warp 0 stores float4s into a shared array while warp 1 stores scalars into element 4k+3, the last
// float of warp 0's k-th vector: a 16-byte store and a 4-byte store overlap with no barrier.
extern "C" __global__ void sr_float4_vs_scalar_shared(const float4 *in, float *out) {
    __shared__ float4 s4[32];
    float *s = reinterpret_cast<float *>(s4);
    int t = threadIdx.x;
    if (t < 32)
        s4[t] = in[t]; // <-
    else
        s[(t - 32) * 4 + 3] = (float)t; // <-
    __syncthreads();
    out[t] = s[t * 2];
}
