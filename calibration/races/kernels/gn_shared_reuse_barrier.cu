// expect: none
// launch: --grid 2 --block 128 --arg buf:512 --arg buf:1024:zero
// One shared array used twice: a tree reduction, a barrier after its last read, then the same
// bytes reused as a reversed tile.
extern "C" __global__ void gn_shared_reuse_barrier(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int w = 64; w > 0; w >>= 1) {
        if (t < w) s[t] += s[t + w];
        __syncthreads();
    }
    float total = s[0];
    __syncthreads();
    s[127 - t] = in[t] / (total + 1.0f);
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t];
}
