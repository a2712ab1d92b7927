// expect: race
// launch: --grid 1 --block 64 --arg buf:2048 --arg buf:256:zero --arg i32:8
// Tiles loaded in a loop with one barrier: the next iteration's writes race the previous reads.
extern "C" __global__ void sr_loop_war(const float *in, float *out, int tiles) {
    __shared__ float s[64];
    int t = threadIdx.x;
    float acc = 0;
    for (int k = 0; k < tiles; k++) {
        s[t] = in[k * 64 + t];
        __syncthreads();
        acc += s[(t + 1) % 64];
    }
    out[t] = acc;
}
