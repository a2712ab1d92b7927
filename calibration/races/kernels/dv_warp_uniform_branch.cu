// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// A barrier under `threadIdx.x < 32`: uniform within each warp but not across the block (warp 1
// never reaches it): barrier divergence.
extern "C" __global__ void dv_warp_uniform_branch(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 32) {
        __syncthreads();
        out[t] = s[t + 32];
    }
}
