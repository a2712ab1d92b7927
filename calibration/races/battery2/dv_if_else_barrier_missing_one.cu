// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// Two phases in each branch of a condition on the warp: the `if` has two barriers, the `else`
// only one, so warp 0 waits at its second barrier while warp 1 has left the branch.
extern "C" __global__ void dv_if_else_barrier_missing_one(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = in[t];
        __syncthreads(); // <-
        out[t] = s[t + 32];
        __syncthreads(); // <-
    } else {
        s[t] = in[t] * 2;
        __syncthreads(); // <-
        out[t] = s[t - 32];
    }
}
