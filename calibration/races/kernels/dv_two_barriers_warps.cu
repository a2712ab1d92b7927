// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// Warp 0 and warp 1 reach two different __syncthreads() in the two branches of an if/else on
// threadIdx.x (barrier divergence by CUDA's rule, whatever the hardware makes of it).
extern "C" __global__ void dv_two_barriers_warps(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = t;
        __syncthreads();
        out[t] = 1;
    } else {
        __syncthreads();
        out[t] = s[t - 32];
    }
}
