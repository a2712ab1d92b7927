// expect: divergent_barrier
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// A barrier under a warp vote: __any_sync() gives every lane of a warp the same answer, but
// warps 0 and 1 (some lane below 40) and warps 2 and 3 get different ones, so only half of the
// block reaches the barrier.
extern "C" __global__ void dv_any_sync_warp_vote_barrier(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    if (__any_sync(0xffffffffu, t < 40)) {
        __syncthreads(); // <-
        out[t] = s[t ^ 32];
    }
}
