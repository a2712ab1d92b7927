// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// dv_loop_break_barrier with the limit read by every thread from the block's first input after
// a barrier: the `break` is block-uniform, every thread reaches the same barriers.
extern "C" __global__ void gn_loop_break_uniform_barrier(const int *in, int *out) {
    __shared__ int s[64];
    __shared__ int lim;
    int t = threadIdx.x, acc = 0;
    if (t == 0) lim = (in[0] & 7) + 1;
    __syncthreads();
    int limit = lim;
    for (int it = 0; it < 8; ++it) {
        if (it >= limit) break;
        s[t] = acc + it;
        __syncthreads();
        acc += s[(t + 1) % 64];
        __syncthreads();
    }
    out[t] = acc;
}
