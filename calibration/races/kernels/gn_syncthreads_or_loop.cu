// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A loop that ends when __syncthreads_or() of the threads' "more to do" is false: every thread
// leaves in the same iteration though their own trip counts differ, so the barrier is uniform.
// Each iteration's shared exchange is ordered by it.
extern "C" __global__ void gn_syncthreads_or_loop(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int left = t % 5, v = in[t] & 0xf;
    s[t] = v;
    while (__syncthreads_or(left > 0)) {
        v += s[(t + 1) % 64];
        if (left > 0) --left;
        __syncthreads();
        s[t] = v;
    }
    out[t] = v;
}
